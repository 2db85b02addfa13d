ALTER TABLE "customers" ADD COLUMN "ledger_entries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "ledger_amount_total" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
UPDATE "customers" c SET "ledger_entries" = t.entries, "ledger_amount_total" = t.amount_total
FROM (
  SELECT client_id, customer_id, count(*)::int AS entries, sum(amount) AS amount_total
  FROM "transactions" GROUP BY client_id, customer_id
) t
WHERE c.client_id = t.client_id AND c.id = t.customer_id;
