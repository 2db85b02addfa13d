-- What the gateway said (or did not say) about an attempt whose answer was unusable: the call and
-- each lookup by its ORDER_ID, with any record found, kept for the person who settles it.
ALTER TABLE "payment_attempts" ADD COLUMN "gateway_evidence" jsonb DEFAULT '[]'::jsonb NOT NULL;
