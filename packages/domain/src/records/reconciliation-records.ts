import { z } from "zod";
import { calendarDate } from "../calendar/calendar-date.js";
import { listQuerySchema, recordQuerySchema } from "../api/list-query.js";
import { amountString, dateString, timestampString } from "../api/page-schema.js";

// A client's day reconciled: what BluePay settled against what the ledger holds, and each difference.

export const RECONCILIATION_DIFFERENCE_KINDS = [
  "missing_in_ledger",
  "missing_at_gateway",
  "amount_differs",
  "unknown_attempt",
] as const;
export type ReconciliationDifferenceKind = (typeof RECONCILIATION_DIFFERENCE_KINDS)[number];

export const RECONCILIATION_DIFFERENCE_LABELS: Record<ReconciliationDifferenceKind, string> = {
  missing_in_ledger: "At the gateway, not in the ledger",
  missing_at_gateway: "In the ledger, not at the gateway",
  amount_differs: "Amounts differ",
  unknown_attempt: "Unknown attempt",
};

export const reconciliationDifferenceSchema = z.object({
  kind: z.enum(RECONCILIATION_DIFFERENCE_KINDS),
  /** The gateway's TRANS_ID ("" for an attempt that has none). */
  trans_id: z.string(),
  order_id: z.string(),
  attempt_id: z.number().int().nullable(),
  customer_id: z.number().int().nullable(),
  /** null where that side has nothing. */
  gateway_amount: amountString.nullable(),
  ledger_amount: amountString.nullable(),
  detail: z.string(),
});
export type ReconciliationDifference = z.infer<typeof reconciliationDifferenceSchema>;

export const RECONCILIATION_STATUSES = ["running", "done", "failed"] as const;

export const reconciliationSummarySchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  day: dateString,
  status: z.enum(RECONCILIATION_STATUSES),
  job_run_id: z.number().int().nullable(),
  gateway_count: z.number().int(),
  gateway_total: amountString,
  ledger_count: z.number().int(),
  ledger_total: amountString,
  difference_count: z.number().int(),
  /** Differences by kind. */
  difference_counts: z.record(z.string(), z.number().int()),
  error: z.string().nullable(),
  checked_at: timestampString.nullable(),
});
export type ReconciliationSummary = z.infer<typeof reconciliationSummarySchema>;

export const reconciliationSchema = reconciliationSummarySchema.extend({
  differences: z.array(reconciliationDifferenceSchema),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;

export const reconciliationPageSchema = z.object({
  count: z.number().int(),
  results: z.array(reconciliationSummarySchema),
});

/** The list: newest day first; date filters one day. */
export const reconciliationListQuerySchema = listQuerySchema.extend({ date: calendarDate().optional() });
export type ReconciliationListQuery = z.infer<typeof reconciliationListQuerySchema>;

/** One day's detail, as JSON or (format=csv) as a CSV download. */
export const reconciliationQuerySchema = recordQuerySchema.extend({
  format: z.enum(["json", "csv"]).optional(),
});

/** POST /api/gateway/reconcile/?client_id=&date=YYYY-MM-DD */
export const reconcileQuerySchema = recordQuerySchema.extend({ date: calendarDate() });

/** The result of a finished gateway-reconcile run. */
export const reconcileResultSchema = z.object({
  reconciliation_id: z.number().int(),
  day: dateString,
  events_applied: z.number().int(),
  difference_count: z.number().int(),
});
export type ReconcileResult = z.infer<typeof reconcileResultSchema>;
