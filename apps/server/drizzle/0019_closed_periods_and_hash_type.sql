ALTER TABLE "clients" ADD COLUMN "books_closed_through" date;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "gateway_hash_type" varchar(12);