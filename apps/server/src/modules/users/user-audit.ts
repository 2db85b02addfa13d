import type { Executor } from "../../db/database.js";
import type { users } from "../../db/tables.js";
import { recordChange } from "../audit/record-change.js";

type UserValues = Partial<typeof users.$inferSelect>;

/** The password's hash shows only that it is set or changed; sign-in counters are their own events. */
const USER_FIELDS = { mask: ["passwordHash"], omit: ["lastLogin", "loginCount", "createdAt"] } as const;

/**
 * A user's change in the trail: in its client's chain (the provider's for admins and unattached
 * registrations), with each changed field before and after.
 */
export async function auditUser(
  tx: Executor,
  action: string,
  before: UserValues | null,
  after: UserValues | null,
  reason?: string,
): Promise<void> {
  const record = after ?? before;
  if (!record?.id) return;
  // A sign-in is the one event the counters are for.
  const signIn = action === "user.sign_in";
  await recordChange(tx, {
    clientId: record.clientId ?? null,
    action,
    recordKind: "user",
    recordId: record.id,
    before: signIn ? before && { last_login: before.lastLogin, login_count: before.loginCount } : before,
    after: signIn ? after && { last_login: after.lastLogin, login_count: after.loginCount } : after,
    fields: signIn ? {} : USER_FIELDS,
    reason,
  });
}
