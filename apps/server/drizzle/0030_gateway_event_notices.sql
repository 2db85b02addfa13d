-- The email a returned or charged-back payment sends its customer: queued with the event, in the
-- transaction that posts the reversal, and sent by the gateway-followups job (claimed first, so
-- two workers never send one).
ALTER TABLE "gateway_events" ADD COLUMN "notice_status" varchar(8);--> statement-breakpoint
ALTER TABLE "gateway_events" ADD COLUMN "notice_recipient" varchar(254) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "gateway_events" ADD COLUMN "notice_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "gateway_events" ADD COLUMN "notice_error" text;--> statement-breakpoint
ALTER TABLE "gateway_events" ADD COLUMN "notice_updated_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "gateway_events_notice_idx" ON "gateway_events" USING btree ("client_id","id") WHERE notice_status in ('queued', 'sending', 'failed');--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "gateway_events_represent_idx" ON "gateway_events" USING btree ("client_id","id") WHERE kind = 're_presented' and attempt_id is null;
