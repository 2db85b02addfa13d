import type { Executor } from "../../db/database.js";
import { HttpError } from "../../http/errors.js";
import { countAttempt, forgiveAttempt, minutesLeft, type RateKey } from "../auth/rate-limit.js";

// The Trans Notify door answers anyone, and each post costs a lookup at the gateway: an address
// is held to a few posts the gateway does not confirm (BluePay's own, confirmed, are forgiven).

export const NOTIFY_LIMIT = 120;
export const NOTIFY_WINDOW_MINUTES = 15;

const key = (address: string): RateKey => ({ purpose: "gateway-notify", address });

export async function admitTransNotify(db: Executor, address: string): Promise<void> {
  const windowMs = NOTIFY_WINDOW_MINUTES * 60_000;
  const counted = await countAttempt(db, key(address), windowMs);
  if (counted.attempts > NOTIFY_LIMIT) {
    const minutes = minutesLeft(counted, windowMs);
    throw new HttpError(429, {
      detail: `Too many notifications from this address. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    });
  }
}

export async function transNotifyConfirmed(db: Executor, address: string): Promise<void> {
  await forgiveAttempt(db, key(address));
}
