import { z } from "zod";
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
