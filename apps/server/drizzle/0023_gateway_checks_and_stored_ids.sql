ALTER TABLE "payment_attempts" ADD COLUMN "stored_id" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "gateway_checks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "next_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_payment_methods" ADD COLUMN "stored_id" varchar(64) DEFAULT '' NOT NULL;
