-- Issue 40 (pools): a ready pool whose zip went missing is drawn again from its statements. Its first build
-- already added its overflow bills (statements of more than one page) to the client's count, so the
-- pool keeps how many it added and a build adds only the difference. Pools ready before this
-- counted theirs from their statements' pages, which their build set.
ALTER TABLE "pools" ADD COLUMN "overflows_counted" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE "pools" p SET "overflows_counted" = (
  SELECT count(*) FROM "statements" s WHERE s."client_id" = p."client_id" AND s."pool_id" = p."id" AND s."pages" > 1
) WHERE p."state" = 'ready' AND p."client_id" IS NOT NULL;
--> statement-breakpoint
-- Pools downloaded before downloads claimed went_out get their record now, so the record alone says
-- what went out (undo's older check of pools.downloaded_at then adds nothing).
INSERT INTO "went_out" ("client_id", "production_run_id", "kind", "ref", "state", "claimed_at", "settled_at")
SELECT "client_id", "production_run_id", 'pool', "pool_name", 'done', "downloaded_at", "downloaded_at"
FROM "pools"
WHERE "downloaded_at" IS NOT NULL AND "production_run_id" IS NOT NULL AND "client_id" IS NOT NULL
ON CONFLICT DO NOTHING;
