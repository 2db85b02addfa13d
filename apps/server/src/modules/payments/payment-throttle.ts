import type { Executor } from "../../db/database.js";
import { HttpError } from "../../http/errors.js";
import {
  countAttempt,
  forgiveAttempt,
  minutesLeft,
  pruneRateLimits,
  type RateKey,
} from "../auth/rate-limit.js";

// The public payment endpoints answer anyone, so each address is held to a few tries, counted in
// PostgreSQL (rate_limits, as login throttling) so every API process shares the count.

/** Failed pay-code lookups per address: pay codes are unguessable, guessing them is what this stops. */
export const LOOKUP_LIMIT = 20;
export const LOOKUP_WINDOW_MINUTES = 15;
/** Charges per address (approved or not): a stolen-card tester is held to a few cards an hour. */
export const CHARGE_LIMIT = 10;
export const CHARGE_WINDOW_MINUTES = 60;

function tooMany(minutes: number): HttpError {
  return new HttpError(429, {
    detail: `Too many payment attempts from this address. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  });
}

async function admit(db: Executor, key: RateKey, limit: number, windowMinutes: number): Promise<void> {
  const windowMs = windowMinutes * 60_000;
  const counted = await countAttempt(db, key, windowMs);
  if (counted.attempts > limit) throw tooMany(minutesLeft(counted, windowMs));
}

const lookupKey = (address: string): RateKey => ({ purpose: "pay-lookup", address });

/** Counts a lookup before it is made (429 over the limit); a lookup that finds its statement is forgiven. */
export async function admitPaymentLookup(db: Executor, address: string): Promise<void> {
  await admit(db, lookupKey(address), LOOKUP_LIMIT, LOOKUP_WINDOW_MINUTES);
}

export async function paymentLookupFound(db: Executor, address: string): Promise<void> {
  await forgiveAttempt(db, lookupKey(address));
}

/** Counts a public charge before anything is sent (429 over the limit). */
export async function admitPublicCharge(db: Executor, address: string): Promise<void> {
  await admit(db, { purpose: "pay-charge", address }, CHARGE_LIMIT, CHARGE_WINDOW_MINUTES);
  await pruneRateLimits(db);
}
