import { z } from "zod";
import { calendarDate } from "../calendar/calendar-date.js";
import { integerParam, listQuerySchema } from "../api/list-query.js";
import { amountString, dateString, timestampString } from "../api/page-schema.js";

// What GET /api/gateway/events/ answers: what the gateway reported after its first answer
// (settlements, ACH returns, chargebacks and their reversals, NOCs, re-presentments), newest first.

export const GATEWAY_EVENT_KINDS = [
  "settled",
  "returned",
  "charged_back",
  "chargeback_reversed",
  "noc",
  "re_presented",
] as const;
export type GatewayEventKindApi = (typeof GATEWAY_EVENT_KINDS)[number];

export const gatewayEventsQuerySchema = listQuerySchema.extend({
  kind: z.enum(GATEWAY_EVENT_KINDS).optional(),
  customer_id: integerParam({ min: 1 }).optional(),
  /** The day the gateway dated the events (the reconciliation's day). */
  date: calendarDate().optional(),
});
export type GatewayEventsQuery = z.infer<typeof gatewayEventsQuerySchema>;

export const gatewayEventSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  kind: z.enum(GATEWAY_EVENT_KINDS),
  gateway_trans_id: z.string(),
  original_trans_id: z.string(),
  attempt_id: z.number().int().nullable(),
  customer_id: z.number().int().nullable(),
  customer_no: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  /** R01… (returns), C01… (NOC), the card network's code (chargebacks). */
  code: z.string(),
  reason: z.string(),
  /** "ACH return R01 Insufficient funds", "Chargeback 4837 …": what the customer's ledger shows. */
  description: z.string(),
  amount: amountString,
  event_date: dateString,
  source: z.enum(["report", "notify", "manual"]),
  corrected_data: z.string(),
  transaction_id: z.number().int().nullable(),
  fee_transaction_id: z.number().int().nullable(),
  notice_status: z.enum(["queued", "sending", "sent", "failed"]).nullable(),
  created: timestampString,
});
export type GatewayEventRecord = z.infer<typeof gatewayEventSchema>;

/**
 * POST /api/gateway/events/ (provider admins): an event read off BluePay's console by a person,
 * applied as the reports' are. Settlements come from the reports only.
 */
export const gatewayEventInputSchema = z.object({
  kind: z.enum(["returned", "charged_back", "chargeback_reversed", "noc"]),
  /** The event's own record at the gateway (the REJECT's TRANS_ID). */
  gateway_trans_id: z
    .string()
    .trim()
    .regex(/^\d{1,20}$/, "Enter the gateway's transaction ID (digits)."),
  /** The TRANS_ID of our sale it is about. */
  original_trans_id: z
    .string()
    .trim()
    .regex(/^\d{1,20}$/, "Enter the sale's transaction ID (digits)."),
  code: z.string().trim().max(8).default(""),
  reason: z.string().trim().max(200).default(""),
  event_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter a date as YYYY-MM-DD.")
    .optional(),
  corrected_data: z.string().trim().max(120).default(""),
});
export type GatewayEventInputApi = z.infer<typeof gatewayEventInputSchema>;

export const appliedGatewayEventSchema = z.object({
  applied: z.boolean(),
  event_id: z.number().int().nullable(),
  attempt_id: z.number().int().nullable(),
  transaction_id: z.number().int().nullable(),
  fee_transaction_id: z.number().int().nullable(),
});
