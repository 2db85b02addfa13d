-- Issue 39: an account belongs to whoever proves its email. email_verified_at is set when the
-- address's owner follows an emailed link (registration's confirmation, an invitation, a reset);
-- accounts made by the operator (create-admin, the first admin, the demo) are proven when made.
-- Existing accounts that were in use (a password, and a client or the admin role) count as proven;
-- unattached self-registrations and unaccepted invitations prove theirs on their next link.
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "users" SET "email_verified_at" = "created_at"
  WHERE "password_hash" IS NOT NULL AND ("is_admin" OR "client_id" IS NOT NULL);
--> statement-breakpoint
-- One proven account per address. Unproven rows may share it: an owner's invitation answers alike
-- whether or not the address has an account elsewhere, with a real (pending) user.
DROP INDEX "users_email_key";
--> statement-breakpoint
DROP INDEX "users_username_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" (lower("email")) WHERE "email_verified_at" IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_key" ON "users" (lower("username")) WHERE "email_verified_at" IS NOT NULL;
--> statement-breakpoint
-- Still one row per address outside clients (registrations, admins) and one per address in a client.
CREATE UNIQUE INDEX "users_unattached_email_key" ON "users" (lower("email")) WHERE "client_id" IS NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "users_client_email_key" ON "users" ("client_id", lower("email")) WHERE "client_id" IS NOT NULL;
