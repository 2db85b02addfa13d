import { z } from "zod";
import { listQuerySchema } from "../api/list-query.js";
import { addDays, daysInMonth } from "../calendar/calendar-math.js";
import { autopayChargeDate } from "../delivery/statement-due.js";

// Cards on file that will not last to the customer's next charge: listed for the owner and the
// customer is emailed once per card.

/** The first day a card with expiry MMYY can no longer be charged (the 1st of the month after). */
export function cardDeadOn(expiry: string): string | null {
  const match = /^(0[1-9]|1[0-2])(\d{2})$/.exec(expiry);
  if (!match) return null;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`;
}

/** Whether the card (MMYY) is no longer good on `chargeOn` (YYYY-MM-DD); an unreadable expiry is. */
export function cardExpiresBefore(expiry: string, chargeOn: string): boolean {
  const dead = cardDeadOn(expiry);
  return dead === null || dead <= chargeOn;
}

/** The same day a month later (clamped to that month's end). */
export function monthAfter(date: string): string {
  let year = Number(date.slice(0, 4));
  let month = Number(date.slice(5, 7)) + 1;
  if (month === 13) {
    month = 1;
    year += 1;
  }
  const last = daysInMonth(year, month);
  const day = Math.min(Number(date.slice(8, 10)), last);
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/**
 * The customer's next charge: an autopay charge its last statement announced and still ahead;
 * else the charge after the client's next monthly cycle (a month after its last billing, or a month
 * from today when it was never billed or that day has passed), on the day autopay would charge it.
 * Process CC runs go at staff's choice; we take the same cycle as their horizon (our choice).
 */
export function nextChargeDate(input: {
  today: string;
  announcedChargeOn: string | null;
  dateLastBilling: string | null;
  /** The client's due days (its structured terms). */
  dueDays: number;
}): string {
  if (input.announcedChargeOn !== null && input.announcedChargeOn >= input.today)
    return input.announcedChargeOn;
  let cycle = input.dateLastBilling ? monthAfter(input.dateLastBilling) : monthAfter(input.today);
  if (cycle < input.today) cycle = monthAfter(input.today);
  const charge = autopayChargeDate(cycle, input.dueDays);
  return charge < addDays(input.today, 1) ? addDays(input.today, 1) : charge;
}

/** GET /api/payment-methods/expiring/: the client's cards on file that expire before the next charge. */
export const expiringCardsQuerySchema = listQuerySchema;
export type ExpiringCardsQuery = z.infer<typeof expiringCardsQuerySchema>;

export const expiringCardSchema = z.object({
  customer_id: z.number().int(),
  customer_no: z.number().int(),
  customer_name: z.string(),
  mask: z.string(),
  card_type: z.string(),
  /** MMYY as stored. */
  expiry: z.string(),
  autopay_flag: z.boolean(),
  /** The charge the card will not be good for (YYYY-MM-DD). */
  next_charge_on: z.string(),
  /** When the customer was emailed about it (null: not yet, or no email address). */
  notified_at: z.string().nullable(),
});
export type ExpiringCard = z.infer<typeof expiringCardSchema>;
export const expiringCardsPageSchema = z.object({
  count: z.number().int(),
  results: z.array(expiringCardSchema),
});
export type ExpiringCardsPage = z.infer<typeof expiringCardsPageSchema>;
