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
 * Failed checks per account across addresses: slower and larger than the pair lock, so one
 * address (at most 40 checks an hour) can never lock an account, the provider admin included,
 * for those who log in from elsewhere; many addresses together are still held to 100 an hour.
 */
export const ACCOUNT_LIMIT = 100;
export const ACCOUNT_WINDOW_MINUTES = 60;

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
 */
export async function admitLoginAttempt(db: Executor, account: string, address: string): Promise<void> {
  for (const { key, limit, windowMs } of limits(account, address)) {
    const counted = await countAttempt(db, key, windowMs);
    if (counted.attempts > limit) throw tooMany(counted, windowMs);
  }
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
