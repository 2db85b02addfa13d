import { and, asc, count, eq, gt, lt } from "drizzle-orm";
import type { Passkey } from "@cyclebill/domain";
import { currentClock } from "../../clock.js";
import type { Executor } from "../../db/database-types.js";
import { passkeyChallenges, userPasskeys } from "../../db/tables.js";

// The auth module owns user_passkeys and passkey_challenges: every read and write of a user's
// passkeys and their challenges goes through here.

export type PasskeyRow = typeof userPasskeys.$inferSelect;
export type ChallengePurpose = "register" | "sign_in";

const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;

export function passkeyOut(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

export async function listPasskeys(db: Executor, userId: number): Promise<PasskeyRow[]> {
  return db.select().from(userPasskeys).where(eq(userPasskeys.userId, userId)).orderBy(asc(userPasskeys.id));
}

export async function countPasskeys(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ value: count() }).from(userPasskeys).where(eq(userPasskeys.userId, userId));
  return row?.value ?? 0;
}

/** Keeps a challenge handed out; the user's expired ones go (they could never be spent). */
export async function keepChallenge(
  db: Executor,
  userId: number,
  purpose: ChallengePurpose,
  challenge: string,
): Promise<void> {
  await db
    .delete(passkeyChallenges)
    .where(and(eq(passkeyChallenges.userId, userId), lt(passkeyChallenges.expiresAt, currentClock().now())));
  await db.insert(passkeyChallenges).values({
    userId,
    purpose,
    challenge,
    expiresAt: new Date(currentClock().now().getTime() + CHALLENGE_LIFETIME_MS),
  });
}

/** Spends a challenge of this user and purpose that has not expired (one delete: it works once). */
export async function spendChallenge(
  db: Executor,
  userId: number,
  purpose: ChallengePurpose,
  challenge: string,
): Promise<boolean> {
  const spent = await db
    .delete(passkeyChallenges)
    .where(
      and(
        eq(passkeyChallenges.userId, userId),
        eq(passkeyChallenges.purpose, purpose),
        eq(passkeyChallenges.challenge, challenge),
        gt(passkeyChallenges.expiresAt, currentClock().now()),
      ),
    )
    .returning({ id: passkeyChallenges.id });
  return spent.length === 1;
}

export async function insertPasskey(
  db: Executor,
  passkey: Pick<PasskeyRow, "userId" | "credentialId" | "publicKey" | "signCount" | "transports" | "name">,
): Promise<PasskeyRow> {
  const [row] = await db.insert(userPasskeys).values(passkey).returning();
  if (!row) throw new Error("passkey not kept");
  return row;
}

export async function findPasskey(
  db: Executor,
  userId: number,
  credentialId: string,
): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .select()
    .from(userPasskeys)
    .where(and(eq(userPasskeys.userId, userId), eq(userPasskeys.credentialId, credentialId)))
    .limit(1);
  return row;
}

/**
 * Moves the signature counter on from the value read (one conditional update, so two requests
 * with one assertion cannot both pass).
 */
export async function advanceSignCount(db: Executor, row: PasskeyRow, signCount: number): Promise<boolean> {
  const moved = await db
    .update(userPasskeys)
    .set({ signCount, lastUsedAt: currentClock().now() })
    .where(and(eq(userPasskeys.id, row.id), eq(userPasskeys.signCount, row.signCount)))
    .returning({ id: userPasskeys.id });
  return moved.length === 1;
}

export async function deletePasskey(
  db: Executor,
  userId: number,
  id: number,
): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .delete(userPasskeys)
    .where(and(eq(userPasskeys.userId, userId), eq(userPasskeys.id, id)))
    .returning();
  return row;
}

/** Removes every passkey of the user (a reset); how many there were. */
export async function deletePasskeys(db: Executor, userId: number): Promise<number> {
  await db.delete(passkeyChallenges).where(eq(passkeyChallenges.userId, userId));
  const removed = await db
    .delete(userPasskeys)
    .where(eq(userPasskeys.userId, userId))
    .returning({ id: userPasskeys.id });
  return removed.length;
}

/** How an audit row names a passkey: its name and the start of its credential id, never its key. */
export function passkeyLabel(row: Pick<PasskeyRow, "name" | "credentialId">): string {
  return `${row.name} (${row.credentialId.slice(0, 12)}…)`;
}
