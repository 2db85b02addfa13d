CREATE INDEX "customers_client_city_id_idx" ON "customers" USING btree ("client_id","city","id");--> statement-breakpoint
CREATE INDEX "customers_client_email_id_idx" ON "customers" USING btree ("client_id","email","id");--> statement-breakpoint
CREATE INDEX "customers_client_open_date_id_idx" ON "customers" USING btree ("client_id","open_date","id");--> statement-breakpoint
CREATE INDEX "customers_client_first_name_id_idx" ON "customers" USING btree ("client_id","first_name","id");--> statement-breakpoint
CREATE INDEX "customers_client_last_name_id_idx" ON "customers" USING btree ("client_id","last_name","id");