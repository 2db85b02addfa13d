-- A card run asks, per customer, whether another customer of the client has the same card (mask,
-- card type, expiry): an index instead of scanning every stored method of the client.
CREATE INDEX IF NOT EXISTS "customer_payment_methods_same_card" ON "customer_payment_methods" USING btree ("client_id","mask","card_type","expiry");
