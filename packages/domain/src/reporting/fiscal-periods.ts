/** First day (YYYY-MM-DD) of the month containing asOf. */
export function monthStart(asOf: string): string {
  return `${asOf.slice(0, 7)}-01`;
}

/** Last day (YYYY-MM-DD) of the month containing asOf. */
export function monthEnd(asOf: string): string {
  const year = Number(asOf.slice(0, 4));
  const month = Number(asOf.slice(5, 7));
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${asOf.slice(0, 7)}-${String(last).padStart(2, "0")}`;
}

/** First day of the fiscal year containing asOf, for a year that starts in resetMonth (1-12). */
export function fiscalYearStart(asOf: string, resetMonth: number): string {
  const year = Number(asOf.slice(0, 4));
  const month = Number(asOf.slice(5, 7));
  const startYear = month >= resetMonth ? year : year - 1;
  return `${startYear}-${String(resetMonth).padStart(2, "0")}-01`;
}
