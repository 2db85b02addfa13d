ALTER TABLE "statements" ADD COLUMN "autopay_method" varchar(60);--> statement-breakpoint
ALTER TABLE "statements" ADD COLUMN "autopay_charge_date" date;
