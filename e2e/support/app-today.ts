/**
 * The server's business date (today in the provider's time zone, from its one clock), as
 * GET /api/health/ answers it: browser tests date by it, never by the machine's calendar.
 */
export async function appToday(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/health/`);
  const body = (await response.json()) as { business_date?: string };
  if (!body.business_date) throw new Error("the server did not say its business date");
  return body.business_date;
}
