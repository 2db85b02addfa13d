import type { Executor } from "../../db/database.js";
import { HttpError } from "../../http/errors.js";
import { currentClock } from "../../clock.js";
import {
  clearAttempts,
  countAttempt,
  forgiveAttempt,
  minutesLeft,
  pruneRateLimits,
  type Counted,
  type RateKey,
} from "./rate-limit.js";

/** Password checks per account and address in a window: the lock a guessing address meets. */
export const PAIR_LIMIT = 10;
export const PAIR_WINDOW_MINUTES = 15;
/** Failed checks per address across accounts (one address trying many accounts). */
export const ADDRESS_LIMIT = 50;
export const ADDRESS_WINDOW_MINUTES = 15;
/**
 * Failed checks per account across addresses in an hour past which the account is under attack:
 * the attack is logged and shown to admins, and the brake goes on. The brake never locks the
 * account: it only cuts the pair allowance of addresses that have themselves failed on it, so the
 * owner (or the provider admin) signs in at once from an address that is not guessing.
 */
export const ACCOUNT_LIMIT = 30;
export const ACCOUNT_WINDOW_MINUTES = 60;
/** Checks per account and address in the pair window while the account is under attack (a typo or two). */
export const UNDER_ATTACK_PAIR_LIMIT = 3;

/** Where an attack is reported: the request's logger (pino), or nothing in tools and tests. */
export type ThrottleLog = { warn: (details: object, message: string) => void };

type Limit = { key: RateKey; limit: number; windowMs: number };

function limits(account: string, address: string): Limit[] {
  return [
    {
      key: { purpose: "login", account, address },
      limit: PAIR_LIMIT,
      windowMs: PAIR_WINDOW_MINUTES * 60_000,
    },
    { key: { purpose: "login", address }, limit: ADDRESS_LIMIT, windowMs: ADDRESS_WINDOW_MINUTES * 60_000 },
    { key: { purpose: "login", account }, limit: ACCOUNT_LIMIT, windowMs: ACCOUNT_WINDOW_MINUTES * 60_000 },
  ];
}

function tooMany(counted: Counted, windowMs: number): HttpError {
  const minutes = minutesLeft(counted, windowMs);
  return new HttpError(429, {
    detail: `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  });
}

/**
 * Counts this login attempt before its password is checked, and refuses it with 429 when it is
 * over a limit. Narrowest first, and a refused attempt is not counted further: an address
 * hammering one account fills only its own pair, not the account's or the address's count.
 * Past the account's limit an address that has already tried this account in its pair window
 * gets only a few checks; a fresh address still gets its check, so the right password works.
 */
export async function admitLoginAttempt(
  db: Executor,
  account: string,
  address: string,
  log?: ThrottleLog,
): Promise<void> {
  const [pairLimit, addressLimit, accountLimit] = limits(account, address) as [Limit, Limit, Limit];
  const pair = await countAttempt(db, pairLimit.key, pairLimit.windowMs);
  if (pair.attempts > PAIR_LIMIT) throw tooMany(pair, pairLimit.windowMs);
  const byAddress = await countAttempt(db, addressLimit.key, addressLimit.windowMs);
  if (byAddress.attempts > ADDRESS_LIMIT) throw tooMany(byAddress, addressLimit.windowMs);
  const byAccount = await countAttempt(db, accountLimit.key, accountLimit.windowMs);
  if (byAccount.attempts <= ACCOUNT_LIMIT) return;
  // Logged once per window, when the count first passes the limit (one upsert hands out each number once).
  if (byAccount.attempts === ACCOUNT_LIMIT + 1)
    log?.warn(
      { account, attempts: byAccount.attempts, since: byAccount.windowStarted.toISOString() },
      `login: account under attack, more than ${ACCOUNT_LIMIT} failed sign-ins within ${ACCOUNT_WINDOW_MINUTES} minutes; addresses that failed on it are slowed`,
    );
  if (pair.attempts > UNDER_ATTACK_PAIR_LIMIT) throw tooMany(pair, pairLimit.windowMs);
}

/** A right password: the pair starts afresh, and the wider counts forget this attempt. */
export async function loginSucceeded(db: Executor, account: string, address: string): Promise<void> {
  const [pair, ...wider] = limits(account, address);
  if (pair) await clearAttempts(db, pair.key);
  for (const { key } of wider) await forgiveAttempt(db, key);
}

/** A wrong password stays counted; old counts are dropped while we are here. */
export async function loginFailed(db: Executor, now = currentClock().now()): Promise<void> {
  await pruneRateLimits(db, now);
}
