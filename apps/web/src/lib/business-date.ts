import { businessDate } from "@cyclebill/domain";

/**
 * The provider's time zone, which the server writes into the page (BILLING_TIME_ZONE), so the
 * web's "today" is the server's business date wherever the browser is. The browser's own zone
 * only when the page was opened without it.
 */
export function providerTimeZone(): string {
  const fromServer = document.querySelector('meta[name="billing-time-zone"]')?.getAttribute("content");
  return fromServer || Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Today's business date (YYYY-MM-DD): service-date and invoice-date defaults. */
export function today(): string {
  return businessDate(new Date(), providerTimeZone());
}
