import { z } from "zod";
import { listQuerySchema } from "../api/list-query.js";
import { amountString, timestampString } from "../api/page-schema.js";
import { PAYMENT_ATTEMPT_STATUSES, STORED_METHOD_KINDS } from "../records/payment-records.js";

// The attempts whose gateway answer was lost or unusable ("unknown"), with what was sent and what
// the lookups found, and a person's two ways to close one: it was charged, or it was not.

/** GET /api/payment-attempts/needs-checking/ */
export const needsCheckingQuerySchema = listQuerySchema;
export type NeedsCheckingQuery = z.infer<typeof needsCheckingQuerySchema>;

export const gatewayEvidenceSchema = z.object({
  at: timestampString,
  step: z.enum(["call", "lookup"]),
  outcome: z.enum(["no-answer", "unusable", "bad-stamp", "not-found", "unclear", "mismatch", "matched"]),
  detail: z.string(),
  found: z
    .object({
      trans_id: z.string(),
      order_id: z.string(),
      amount: z.string(),
      trans_type: z.string(),
      status: z.string(),
      mask: z.string(),
    })
    .optional(),
});

export const needsCheckingAttemptSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  customer_id: z.number().int(),
  customer_no: z.number().int(),
  customer_name: z.string(),
  kind: z.enum(["sale", "auth", "refund", "void"]),
  source: z.enum(["page", "staff", "bulk", "autopay"]),
  method: z.enum(STORED_METHOD_KINDS),
  created: timestampString,
  /** What was sent: the ORDER_ID lookups ask for, the amount, the type and the account's mask. */
  sent: z.object({ order_id: z.string(), amount: amountString, trans_type: z.string(), mask: z.string() }),
  /** Lookups made so far. */
  lookups: z.number().int(),
  /** Past the lookup window: only a person can settle it now. */
  needs_checking: z.boolean(),
  /** Until when the gateway is asked again by itself. */
  lookups_until: timestampString,
  evidence: z.array(gatewayEvidenceSchema),
});
export type NeedsCheckingAttempt = z.infer<typeof needsCheckingAttemptSchema>;

export const RESOLVE_REASON_REQUIRED = "Say why (what you checked at the gateway).";

/** POST /api/payment-attempts/{id}/resolve/ */
export const resolveAttemptSchema = z.object({
  outcome: z.enum(["charged", "not_charged"], { error: 'Choose "charged" or "not_charged".' }),
  reason: z
    .string({ error: RESOLVE_REASON_REQUIRED })
    .trim()
    .min(1, { error: RESOLVE_REASON_REQUIRED })
    .max(500, { error: "Keep the reason under 500 characters." }),
  /** The gateway's TRANS_ID of the charge, when "charged" and known. */
  trans_id: z
    .string()
    .trim()
    .regex(/^\d{1,20}$/, { error: "A TRANS_ID is up to 20 digits." })
    .optional(),
});
export type ResolveAttemptPayload = z.infer<typeof resolveAttemptSchema>;

export const resolvedAttemptSchema = z.object({
  id: z.number().int(),
  status: z.enum(PAYMENT_ATTEMPT_STATUSES),
  message: z.string(),
  transaction_id: z.number().int().nullable(),
  resolved_by_user_id: z.number().int().nullable(),
  resolved_at: timestampString.nullable(),
  resolution_reason: z.string().nullable(),
});
export type ResolvedAttempt = z.infer<typeof resolvedAttemptSchema>;
