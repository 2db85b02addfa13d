-- Every API process keeps signed-in users in memory (modules/auth/auth-cache.ts) and forgets one the
-- moment this notice says it changed: any change to a user (deactivated, role, client, password),
-- a user removed, or a token revoked. NOTIFY is delivered when the transaction commits.
CREATE OR REPLACE FUNCTION notify_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('cyclebill_auth', 'all');
  ELSIF TG_TABLE_NAME = 'revoked_tokens' THEN
    PERFORM pg_notify('cyclebill_auth', 'token:' || (CASE WHEN TG_OP = 'DELETE' THEN OLD.jti ELSE NEW.jti END));
  ELSE
    PERFORM pg_notify('cyclebill_auth', 'user:' || (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_auth_change AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER users_auth_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER revoked_tokens_auth_change AFTER INSERT OR UPDATE OR DELETE ON revoked_tokens
  FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
