ALTER TABLE "production_runs" ADD COLUMN "client_before" jsonb;--> statement-breakpoint
ALTER TABLE "production_runs" ADD COLUMN "undo_job_run_id" bigint;--> statement-breakpoint
ALTER TABLE "production_runs" ADD COLUMN "undo_requested_by_user_id" bigint;--> statement-breakpoint
ALTER TABLE "production_runs" ADD COLUMN "undone_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "production_runs" ADD COLUMN "undone_figures" jsonb;--> statement-breakpoint
ALTER TABLE "production_runs" ADD CONSTRAINT "production_runs_undo_requested_by_user_id_users_id_fk" FOREIGN KEY ("undo_requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
DROP INDEX "production_runs_client_cycle_month_key";--> statement-breakpoint
CREATE UNIQUE INDEX "production_runs_client_cycle_month_key" ON "production_runs" USING btree ("client_id","cycle","run_month") WHERE undone_at is null;--> statement-breakpoint
ALTER TABLE "pools" ADD COLUMN "downloaded_at" timestamp with time zone;
