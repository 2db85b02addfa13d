-- Issue 39: the audit trail. One row per change: who (a user, a job or run and who started it, the
-- CLI), when (the app's clock), from where, what (record kind and id, client, customer), each changed
-- field's value before and after, and a reason where the action asks for one. Rows are chained per
-- client (client 0: the provider's own records), each holding the previous row's hash, so
-- `doctor --audit` proves none was changed or removed. audit_heads keeps each chain's last link
-- (a cache the doctor checks against the rows).
CREATE TABLE "audit_events" (
  "client_id" bigint NOT NULL,
  "seq" bigint NOT NULL,
  "at" timestamp with time zone NOT NULL,
  "actor_kind" varchar(8) NOT NULL,
  "actor_user_id" bigint,
  "actor_label" varchar(254) NOT NULL,
  "address" varchar(64),
  "user_agent" varchar(512),
  "action" varchar(64) NOT NULL,
  "record_kind" varchar(32) NOT NULL,
  "record_id" varchar(64) NOT NULL,
  "customer_id" bigint,
  "changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "reason" text,
  "prev_hash" char(64) NOT NULL,
  "hash" char(64) NOT NULL,
  CONSTRAINT "audit_events_pkey" PRIMARY KEY ("client_id", "seq")
);
--> statement-breakpoint
CREATE INDEX "audit_events_record_idx" ON "audit_events" ("client_id", "record_kind", "record_id", "seq");
--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" ("at");
--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" ("actor_user_id", "at");
--> statement-breakpoint
CREATE TABLE "audit_heads" (
  "client_id" bigint NOT NULL,
  "seq" bigint NOT NULL,
  "hash" char(64) NOT NULL,
  CONSTRAINT "audit_heads_pkey" PRIMARY KEY ("client_id")
);
--> statement-breakpoint
-- Append-only, whoever the role: an update, delete or truncate of the trail is refused. (A
-- superuser can switch triggers off; the chain then shows what was changed.) Production also runs
-- the app as a role granted only INSERT and SELECT on the trail (docs/security.md).
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The audit trail is append-only: % is refused.', TG_OP USING ERRCODE = '42501';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_change" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();
