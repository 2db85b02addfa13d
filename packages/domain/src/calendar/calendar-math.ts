// The one home of business-date arithmetic on ISO dates (YYYY-MM-DD), in UTC days so no time zone or
// daylight-saving change moves a day: every module that adds days, counts them, or prints a date as
// bills do calls these (the business date itself comes from business-date.ts).

const DAY_MS = 24 * 60 * 60 * 1000;

function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

/** The date `days` later (earlier when negative). */
export function addDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** Days in a month (1-12) of a year. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** MM/DD/YYYY, as bills print dates. */
export function usDate(iso: string): string {
  const [year, month, day] = iso.split("-");
  return `${month ?? ""}/${day ?? ""}/${year ?? ""}`;
}
