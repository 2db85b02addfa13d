import { sql } from "drizzle-orm";
import { z } from "zod";
import { currentClock } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbBool, dbInt, dbText, dbTimestamp } from "../../db/row-schemas.js";
import { ACCOUNT_LIMIT, ACCOUNT_WINDOW_MINUTES } from "./login-throttle.js";

export const loginAlertSchema = z.object({
  user_id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(["admin", "owner", "staff"]),
  client: z.number().int().nullable(),
  client_name: z.string().nullable(),
  failed_logins: z.number().int(),
  addresses: z.number().int(),
  since: z.string(),
});
export type LoginAlert = z.infer<typeof loginAlertSchema>;

const alertRowSchema = z.object({
  user_id: dbInt,
  email: dbText,
  first_name: dbText,
  last_name: dbText,
  is_admin: dbBool,
  is_client_staff: dbBool,
  client_id: dbInt.nullable(),
  client_name: dbText.nullable(),
  failed_logins: dbInt,
  addresses: dbInt,
  since: dbTimestamp,
});

/**
 * Accounts under attack now: more failed sign-ins in the account's hour than the throttle's
 * account limit (the brake is on), with how many addresses tried. `clientId` narrows to one
 * client's users; undefined lists every account, the provider's admins included.
 */
export async function listLoginAlerts(
  db: Database,
  clientId: number | undefined,
): Promise<{ count: number; results: LoginAlert[] }> {
  const hourAgo = new Date(currentClock().now().getTime() - ACCOUNT_WINDOW_MINUTES * 60_000).toISOString();
  // Sign-ins are counted by what was typed (username or email), both lower-cased.
  const rows = await queryRows(
    db,
    sql`select u.id as user_id, u.email, u.first_name, u.last_name, u.is_admin, u.is_client_staff,
          u.client_id, c.client_name, sum(r.attempts)::int as failed_logins, min(r.window_started) as since,
          (select count(distinct p.address)::int from rate_limits p
            where p.purpose = 'login' and p.address <> '' and p.window_started > ${hourAgo}::timestamptz
              and p.account in (lower(u.username), lower(u.email))) as addresses
        from users u
        join rate_limits r on r.purpose = 'login' and r.address = ''
          and r.account in (lower(u.username), lower(u.email)) and r.window_started > ${hourAgo}::timestamptz
        left join clients c on c.id = u.client_id
        where ${clientId === undefined ? sql`true` : sql`u.client_id = ${clientId}`}
        group by u.id, c.client_name
        having sum(r.attempts) > ${ACCOUNT_LIMIT}
        order by failed_logins desc, u.id`,
    alertRowSchema,
  );
  const results = rows.map((row): LoginAlert => ({
    user_id: row.user_id,
    email: row.email,
    name: `${row.first_name} ${row.last_name}`.trim(),
    role: row.is_admin ? "admin" : row.is_client_staff ? "staff" : "owner",
    client: row.client_id,
    client_name: row.client_name,
    failed_logins: row.failed_logins,
    addresses: row.addresses,
    since: new Date(row.since).toISOString(),
  }));
  return { count: results.length, results };
}
