DROP INDEX "transactions_customer_service_date_idx";--> statement-breakpoint
DROP INDEX "transactions_client_created_idx";--> statement-breakpoint
DROP INDEX "transactions_client_service_date_idx";--> statement-breakpoint
CREATE INDEX "transactions_customer_service_date_id_idx" ON "transactions" USING btree ("client_id","customer_id","service_date","id");--> statement-breakpoint
CREATE INDEX "transactions_client_created_id_idx" ON "transactions" USING btree ("client_id","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_client_service_date_id_idx" ON "transactions" USING btree ("client_id","service_date","id");