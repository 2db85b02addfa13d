CREATE TABLE "customer_changes" (
	"client_id" bigint NOT NULL,
	"txid" bigint DEFAULT (pg_current_xact_id()::text)::bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_changes_client_id_txid_customer_id_pk" PRIMARY KEY("client_id","txid","customer_id")
);
--> statement-breakpoint
ALTER TABLE "customer_changes" ADD CONSTRAINT "customer_changes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_changes_changed_at_idx" ON "customer_changes" USING btree ("changed_at");
