-- Issue 40: undo now reads emails and pay-link payments from went_out alone, so what went out
-- before went_out existed is recorded there once: emails the mail server accepted ("done") or
-- was being handed ("claimed"), and sales through a statement's pay link that were approved
-- ("done") or may have been (pending, unknown: "claimed"), of run parts not undone.
INSERT INTO "went_out" ("client_id", "production_run_id", "kind", "ref", "state", "statement_id", "claimed_at", "settled_at")
SELECT d."client_id", d."production_run_id", 'email', d."statement_id"::text,
       CASE WHEN d."status" = 'sent' THEN 'done' ELSE 'claimed' END,
       d."statement_id", coalesce(d."sent_at", d."updated_at"), d."sent_at"
FROM "statement_deliveries" d
JOIN "production_runs" p ON p."client_id" = d."client_id" AND p."id" = d."production_run_id"
WHERE d."channel" = 'email' AND d."status" IN ('sent', 'sending') AND p."undone_at" IS NULL
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "went_out" ("client_id", "production_run_id", "kind", "ref", "state", "statement_id", "claimed_at", "settled_at")
SELECT a."client_id", s."production_run_id", 'link_payment', a."id"::text,
       CASE WHEN a."status" = 'approved' THEN 'done' ELSE 'claimed' END,
       a."statement_id", a."created_at", a."settled_at"
FROM "payment_attempts" a
JOIN "statements" s ON s."client_id" = a."client_id" AND s."id" = a."statement_id"
JOIN "production_runs" p ON p."client_id" = s."client_id" AND p."id" = s."production_run_id"
WHERE a."kind" = 'sale' AND a."status" IN ('approved', 'pending', 'unknown') AND p."undone_at" IS NULL
ON CONFLICT DO NOTHING;
