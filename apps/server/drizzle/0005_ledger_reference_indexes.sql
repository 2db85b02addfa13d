CREATE INDEX "invoices_statement_idx" ON "invoices" USING btree ("client_id","statement_id") WHERE statement_id is not null;--> statement-breakpoint
CREATE INDEX "payment_attempts_transaction_idx" ON "payment_attempts" USING btree ("client_id","transaction_id") WHERE transaction_id is not null;--> statement-breakpoint
CREATE INDEX "transactions_client_service_date_idx" ON "transactions" USING btree ("client_id","service_date");--> statement-breakpoint
CREATE INDEX "transactions_code_service_date_idx" ON "transactions" USING btree ("client_id","code_id","service_date");--> statement-breakpoint
CREATE INDEX "transactions_voids_idx" ON "transactions" USING btree ("client_id","voids_transaction_id") WHERE voids_transaction_id is not null;--> statement-breakpoint
CREATE INDEX "transactions_reverses_idx" ON "transactions" USING btree ("client_id","reverses_transaction_id") WHERE reverses_transaction_id is not null;--> statement-breakpoint
CREATE INDEX "transactions_statement_idx" ON "transactions" USING btree ("client_id","statement_id") WHERE statement_id is not null;--> statement-breakpoint
CREATE INDEX "transactions_recurring_charge_idx" ON "transactions" USING btree ("client_id","recurring_charge_id") WHERE recurring_charge_id is not null;--> statement-breakpoint
CREATE INDEX "transactions_production_run_idx" ON "transactions" USING btree ("client_id","production_run_id") WHERE production_run_id is not null;