import type { Executor } from "../../db/database.js";
import { HttpError } from "../../http/errors.js";
import { countAttempt, minutesLeft, pruneRateLimits, type RateKey } from "./rate-limit.js";

// Registration and password reset answer anyone. Each address is held to a few requests an hour,
// counted in the database (rate_limits, as login is) so every API process shares the count, and
// counted before any work (hashing, mail), so refused requests cost next to nothing.

const HOUR_MS = 60 * 60_000;
/** Registrations per address in an hour: a family or small office behind one address still fits. */
export const REGISTRATIONS_PER_ADDRESS_PER_HOUR = 10;
/** "Someone tried to register with your address" mails per email in an hour. */
export const TAKEN_EMAIL_NOTICES_PER_HOUR = 3;
/** New-password submissions per address in an hour (a few tries at an acceptable password per link). */
export const RESET_PASSWORD_ATTEMPTS_PER_ADDRESS_PER_HOUR = 20;

async function admit(db: Executor, key: RateKey, limit: number, what: string): Promise<void> {
  const counted = await countAttempt(db, key, HOUR_MS);
  if (counted.attempts <= limit) return;
  const minutes = minutesLeft(counted, HOUR_MS);
  throw new HttpError(429, {
    detail: `Too many ${what} from this address. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  });
}

export async function admitRegistration(db: Executor, address: string): Promise<void> {
  await admit(db, { purpose: "register", address }, REGISTRATIONS_PER_ADDRESS_PER_HOUR, "registrations");
  await pruneRateLimits(db);
}

export async function admitPasswordReset(db: Executor, address: string): Promise<void> {
  await admit(
    db,
    { purpose: "reset-password", address },
    RESET_PASSWORD_ATTEMPTS_PER_ADDRESS_PER_HOUR,
    "password reset attempts",
  );
}

/** Whether the owner of a taken email may be told of one more registration try this hour. */
export async function mayNoticeTakenEmail(db: Executor, email: string): Promise<boolean> {
  const counted = await countAttempt(db, { purpose: "register", account: email }, HOUR_MS);
  return counted.attempts <= TAKEN_EMAIL_NOTICES_PER_HOUR;
}
