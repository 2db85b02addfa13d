-- Issue 38: a client's terms become a structured field, the days from a statement's date to its due
-- date (0 = due on receipt); terms_message is only printed. Backfilled from how the free text was read
-- until now, but "receipt"/"immediately"/"on demand" first (0: "late fee after 10 days; due upon receipt"
-- is due on receipt), then "Net N" or "N days" is N, anything else 30.
ALTER TABLE "clients" ADD COLUMN "due_days" integer DEFAULT 30 NOT NULL;
--> statement-breakpoint
UPDATE "clients" SET "due_days" = CASE
  WHEN lower("terms_message") ~ '(receipt|immediately|on demand)' THEN 0
  ELSE LEAST(365, coalesce(
    (regexp_match(lower("terms_message"), '\mnet\s*(\d{1,3})\M'))[1]::int,
    (regexp_match(lower("terms_message"), '\m(\d{1,3})\s*days?\M'))[1]::int,
    30))
  END;
--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_due_days_range" CHECK ("due_days" BETWEEN 0 AND 365);
