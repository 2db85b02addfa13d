import { asc, eq, isNotNull, or, sql, type SQL } from "drizzle-orm";
import {
  accessReviewOrderings,
  parseOrdering,
  resolvePaging,
  type AccessReviewQuery,
  type AccessReviewUser,
} from "@cyclebill/domain";
import { businessToday, currentClock } from "../../clock.js";
import type { AdminSecondFactor } from "../../config.js";
import type { Executor } from "../../db/database-types.js";
import { clients, userRecoveryCodes, userSessions, userTotpFactors, users } from "../../db/tables.js";
import type { AuthContext } from "../../http/auth-context.js";
import { fieldError, nonFieldError } from "../../http/errors.js";
import { mustHaveSecondFactor } from "../auth/second-factor-policy.js";
import { toCsvLines } from "../reports/report-csv.js";
import { readableScope, scopeLabel, type AccessReviewScope } from "./access-review-scope.js";
import { passkeyCounts } from "./passkey-counts.js";

/** Every figure of a user the review shows, as SQL over users (so the list can order by them). */
function reviewColumns(now: Date) {
  const totp = sql<boolean>`exists (select 1 from ${userTotpFactors} where ${userTotpFactors.userId} = ${users.id} and ${userTotpFactors.confirmedAt} is not null)`;
  return {
    id: users.id,
    firstName: users.firstName,
    lastName: users.lastName,
    email: users.email,
    isAdmin: users.isAdmin,
    isClientStaff: users.isClientStaff,
    clientId: users.clientId,
    clientName: clients.clientName,
    clientRequiresSecondFactor: clients.requireSecondFactor,
    active: users.isActive,
    emailProven: sql<boolean>`${users.emailVerifiedAt} is not null`,
    totp,
    // Codes count only beside a confirmed app, as the user's own Security screen counts them.
    recoveryCodesLeft: sql<number>`case when ${totp} then (select count(*)::int from ${userRecoveryCodes} where ${userRecoveryCodes.userId} = ${users.id} and ${userRecoveryCodes.usedAt} is null) else 0 end`,
    // A sign-in opens a session; last_login is kept for accounts that signed in before sessions.
    lastSignIn:
      sql<Date | null>`greatest(${users.lastLogin}, (select max(${userSessions.startedAt}) from ${userSessions} where ${userSessions.userId} = ${users.id}))`.mapWith(
        users.lastLogin,
      ),
    openSessions: sql<number>`(select count(*)::int from ${userSessions} where ${userSessions.userId} = ${users.id} and ${userSessions.endedAt} is null and ${userSessions.expiresAt} > ${now.toISOString()}::timestamptz)`,
  };
}

type ReviewColumns = ReturnType<typeof reviewColumns>;

function orderColumns(columns: ReviewColumns): Record<(typeof accessReviewOrderings)[number], SQL> {
  return {
    name: sql`lower(${users.lastName} || ' ' || ${users.firstName})`,
    email: sql`lower(${users.email})`,
    role: sql`case when ${users.isAdmin} then 0 when ${users.isClientStaff} then 2 else 1 end`,
    client: sql`${clients.clientName}`,
    last_sign_in: sql`${columns.lastSignIn}`,
    open_sessions: sql`${columns.openSessions}`,
  };
}

/** Whose accounts a scope covers: one client's users, or the admins and every client's users. */
function scopeFilter(scope: AccessReviewScope): SQL | undefined {
  return scope.clientId === null
    ? or(eq(users.isAdmin, true), isNotNull(users.clientId))
    : eq(users.clientId, scope.clientId);
}

function orderBy(query: AccessReviewQuery, columns: ReviewColumns): SQL[] {
  const ordering = parseOrdering(query.ordering ?? "client,email", accessReviewOrderings);
  if (!ordering.ok)
    throw fieldError(
      "ordering",
      `Unknown ordering field: ${ordering.unknown.join(", ")}. Allowed: ${accessReviewOrderings.join(", ")}.`,
    );
  const byField = orderColumns(columns);
  // Nulls (admins have no client, some users never signed in) count as lowest: first going up.
  const terms = ordering.terms.map((term) => {
    const expression = byField[term.field as keyof typeof byField];
    return term.descending ? sql`${expression} desc nulls last` : sql`${expression} asc nulls first`;
  });
  return [...terms, asc(users.id)];
}

/** A selected row (the drizzle result of reviewColumns; left-joined client fields may be null). */
type ReviewRow = {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  isAdmin: boolean;
  isClientStaff: boolean;
  clientId: number | null;
  clientName: string | null;
  clientRequiresSecondFactor: boolean | null;
  active: boolean;
  emailProven: boolean;
  totp: boolean;
  recoveryCodesLeft: number;
  lastSignIn: Date | null;
  openSessions: number;
};

function toReviewUser(
  row: ReviewRow,
  passkeys: Map<number, number>,
  adminPolicy: AdminSecondFactor,
): AccessReviewUser {
  return {
    user_id: row.id,
    name: `${row.firstName} ${row.lastName}`.trim(),
    email: row.email,
    role: row.isAdmin ? "admin" : row.isClientStaff ? "staff" : "owner",
    client_id: row.clientId,
    client_name: row.clientName,
    active: row.active,
    email_proven: Boolean(row.emailProven),
    totp: Boolean(row.totp),
    recovery_codes_left: Number(row.recoveryCodesLeft),
    passkeys: passkeys.get(row.id) ?? 0,
    second_factor_required: mustHaveSecondFactor(
      { isAdmin: row.isAdmin, clientRequiresSecondFactor: row.clientRequiresSecondFactor ?? false },
      adminPolicy,
    ),
    last_sign_in: row.lastSignIn ? new Date(row.lastSignIn).toISOString() : null,
    open_sessions: Number(row.openSessions),
  };
}

/** The scope's users in the query's order (a page of them, or every one with limit undefined). */
async function reviewUsers(
  db: Executor,
  scope: AccessReviewScope,
  query: AccessReviewQuery,
  adminPolicy: AdminSecondFactor,
  page?: { limit: number; offset: number },
): Promise<AccessReviewUser[]> {
  const columns = reviewColumns(currentClock().now());
  const base = db
    .select(columns)
    .from(users)
    .leftJoin(clients, eq(clients.id, users.clientId))
    .where(scopeFilter(scope))
    .orderBy(...orderBy(query, columns));
  const rows: ReviewRow[] = page ? await base.limit(page.limit).offset(page.offset) : await base;
  const passkeys = await passkeyCounts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toReviewUser(row, passkeys, adminPolicy));
}

/** How many users a scope covers, and how many of them are active. */
export async function scopeCounts(
  db: Executor,
  scope: AccessReviewScope,
): Promise<{ users: number; active: number }> {
  const [row] = await db
    .select({
      users: sql<number>`count(*)::int`,
      active: sql<number>`(count(*) filter (where ${users.isActive}))::int`,
    })
    .from(users)
    .where(scopeFilter(scope));
  return { users: Number(row?.users ?? 0), active: Number(row?.active ?? 0) };
}

/** GET /api/access-review/: the scope's users, paged by the server. */
export async function listAccessReview(
  db: Executor,
  auth: AuthContext,
  query: AccessReviewQuery,
  adminPolicy: AdminSecondFactor,
): Promise<{ count: number; results: AccessReviewUser[] }> {
  const scope = await readableScope(db, auth, query.client_id);
  const [results, counts] = await Promise.all([
    reviewUsers(db, scope, query, adminPolicy, resolvePaging(query)),
    scopeCounts(db, scope),
  ]);
  return { count: counts.users, results };
}

/** Users a CSV holds at most (a provider has far fewer; this only bounds a mistake). */
export const ACCESS_REVIEW_CSV_MAX_USERS = 50_000;

const CSV_COLUMNS = [
  "user_id",
  "name",
  "email",
  "role",
  "client_id",
  "client_name",
  "active",
  "email_proven",
  "totp",
  "recovery_codes_left",
  "passkeys",
  "second_factor_required",
  "last_sign_in",
  "open_sessions",
] as const satisfies readonly (keyof AccessReviewUser)[];

const yesNo = (value: unknown) => (typeof value === "boolean" ? (value ? "yes" : "no") : value);

/**
 * Every user of the scope as CSV: a first line naming the review and its business date (what a
 * filed review needs to say when it was taken), then the columns and one line per user.
 */
export async function accessReviewCsv(
  db: Executor,
  auth: AuthContext,
  query: AccessReviewQuery,
  adminPolicy: AdminSecondFactor,
): Promise<{ fileName: string; content: Buffer }> {
  const scope = await readableScope(db, auth, query.client_id);
  const counts = await scopeCounts(db, scope);
  if (counts.users > ACCESS_REVIEW_CSV_MAX_USERS)
    throw nonFieldError(
      `The CSV holds at most ${ACCESS_REVIEW_CSV_MAX_USERS.toLocaleString("en-US")} users.`,
    );
  const today = businessToday();
  const rows = await reviewUsers(db, scope, query, adminPolicy);
  const lines: unknown[][] = [
    ["Access review", today, scopeLabel(scope)],
    [...CSV_COLUMNS],
    ...rows.map((row) => CSV_COLUMNS.map((column) => yesNo(row[column]))),
  ];
  const which = scope.clientId === null ? "provider" : `client-${scope.clientId}`;
  return {
    fileName: `access-review-${which}-${today}.csv`,
    content: Buffer.from(toCsvLines(lines), "utf8"),
  };
}
