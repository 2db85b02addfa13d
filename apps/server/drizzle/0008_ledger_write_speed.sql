ALTER TABLE "transactions" DROP CONSTRAINT "transactions_client_id_clients_id_fk";
--> statement-breakpoint
-- Room on each page for a customer's new row version: balance updates stay HOT (no index entries,
-- the trigram index above all) when every posting rewrites the customer's figures.
ALTER TABLE "customers" SET (fillfactor = 70);
