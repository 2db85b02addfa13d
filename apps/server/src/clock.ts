import { businessDate } from "@cyclebill/domain";

/** Where "now" comes from, and the provider's time zone that turns it into a business date. */
export type Clock = { now: () => Date; timeZone: string };

export function machineTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

let clock: Clock = { now: () => new Date(), timeZone: machineTimeZone() };

/**
 * The one clock of the process. The server sets the time zone from BILLING_TIME_ZONE at start;
 * tests inject a fixed or shifted "now" so nothing depends on the day they run.
 */
export function setClock(next: Partial<Clock>): void {
  clock = { ...clock, ...next };
}

export function currentClock(): Clock {
  return clock;
}

/** Today in the provider's time zone (YYYY-MM-DD): service-date defaults, month-to-date, runs. */
export function businessToday(): string {
  return businessDate(clock.now(), clock.timeZone);
}
