import { desc, eq, sql } from "drizzle-orm";
import { resolvePaging, type AccessReviewRecord, type ListQuery } from "@cyclebill/domain";
import { businessToday, currentClock } from "../../clock.js";
import type { Database, Executor } from "../../db/database-types.js";
import { accessReviews } from "../../db/tables.js";
import type { AuthContext } from "../../http/auth-context.js";
import { recordAudit } from "../audit/record-audit.js";
import { PROVIDER_WIDE, readableScope, scopeLabel, type AccessReviewScope } from "./access-review-scope.js";
import { scopeCounts } from "./list-access-review.js";

type AccessReviewRow = typeof accessReviews.$inferSelect;

function toRecord(row: AccessReviewRow): AccessReviewRecord {
  return {
    id: row.id,
    client_id: row.clientId === PROVIDER_WIDE ? null : row.clientId,
    reviewed_at: row.reviewedAt.toISOString(),
    review_date: row.reviewDate,
    reviewer_user_id: row.reviewerUserId,
    reviewer: row.reviewerLabel,
    note: row.note,
    users_count: row.usersCount,
    active_users_count: row.activeUsersCount,
  };
}

/** A review to keep: the scope, who and when, what they found. */
export type NewAccessReview = {
  scope: AccessReviewScope;
  reviewer: { id: number; label: string };
  note: string;
  reviewedAt: Date;
  reviewDate: string;
};

/**
 * Keeps a review with the scope's user counts as they are now, and its trail row, in one
 * transaction. The demo seed calls this too, for a review in the past.
 */
export async function keepAccessReview(db: Database, review: NewAccessReview): Promise<AccessReviewRecord> {
  return db.transaction(async (tx) => {
    const counts = await scopeCounts(tx, review.scope);
    const [row] = await tx
      .insert(accessReviews)
      .values({
        clientId: review.scope.clientId ?? PROVIDER_WIDE,
        reviewedAt: review.reviewedAt,
        reviewDate: review.reviewDate,
        reviewerUserId: review.reviewer.id,
        reviewerLabel: review.reviewer.label.slice(0, 254),
        note: review.note,
        usersCount: counts.users,
        activeUsersCount: counts.active,
      })
      .returning();
    if (!row) throw new Error("access review not stored");
    await recordAudit(tx, {
      clientId: review.scope.clientId,
      action: "access_review.record",
      recordKind: "access_review",
      recordId: row.id,
      changes: [
        ["scope", null, scopeLabel(review.scope)],
        ["review_date", null, row.reviewDate],
        ["users_count", null, String(row.usersCount)],
        ["active_users_count", null, String(row.activeUsersCount)],
        ["note", null, row.note],
      ],
    });
    return toRecord(row);
  });
}

/** POST /api/access-review/reviews/: the reader records that they reviewed the scope, now. */
export async function recordAccessReview(
  db: Database,
  auth: AuthContext,
  body: { client_id?: number | undefined; note: string },
): Promise<AccessReviewRecord> {
  const scope = await readableScope(db, auth, body.client_id);
  return keepAccessReview(db, {
    scope,
    reviewer: { id: auth.user.id, label: auth.user.email },
    note: body.note,
    reviewedAt: currentClock().now(),
    reviewDate: businessToday(),
  });
}

/** GET /api/access-review/reviews/: the scope's past reviews, newest first. */
export async function listAccessReviews(
  db: Executor,
  auth: AuthContext,
  query: Pick<ListQuery, "client_id" | "limit" | "offset" | "page">,
): Promise<{ count: number; results: AccessReviewRecord[] }> {
  const scope = await readableScope(db, auth, query.client_id);
  const where = eq(accessReviews.clientId, scope.clientId ?? PROVIDER_WIDE);
  const { limit, offset } = resolvePaging(query);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(accessReviews)
      .where(where)
      .orderBy(desc(accessReviews.reviewedAt), desc(accessReviews.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(accessReviews)
      .where(where),
  ]);
  return { count: Number(total?.count ?? 0), results: rows.map(toRecord) };
}
