CREATE TABLE "rate_limits" (
	"purpose" varchar(20) NOT NULL,
	"account" varchar(254) DEFAULT '' NOT NULL,
	"address" varchar(64) DEFAULT '' NOT NULL,
	"attempts" integer NOT NULL,
	"window_started" timestamp with time zone NOT NULL,
	CONSTRAINT "rate_limits_purpose_account_address_pk" PRIMARY KEY("purpose","account","address")
);
--> statement-breakpoint
DROP TABLE "login_failures" CASCADE;--> statement-breakpoint
CREATE INDEX "rate_limits_window_idx" ON "rate_limits" USING btree ("window_started");