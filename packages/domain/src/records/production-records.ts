import { z } from "zod";
import { integerParam, listQuerySchema, queryFlag } from "../api/list-query.js";
import { amountString, dateString, timestampString } from "../api/page-schema.js";
import { calendarDate } from "../calendar/calendar-date.js";
import { CLIENT_SKIP_LABELS, type ClientSkipReason } from "../production/client-eligibility.js";
import { NO_STATEMENT_REASONS } from "../production/statement-decision.js";
import { RUN_ACTIONS, RUN_PART_ACTIONS } from "../production/run-actions.js";

const clientSkipReasons = Object.keys(CLIENT_SKIP_LABELS) as [ClientSkipReason, ...ClientSkipReason[]];
const countAndTotal = z.object({ count: z.number().int(), total: amountString });

/** What a run does (or did) to a set of customers: the preview's figures equal the run's. */
export const productionFiguresSchema = z.object({
  customers: z.number().int(),
  statements: z.object({
    mail: z.number().int(),
    email: z.number().int(),
    both: z.number().int(),
    pulled: z.number().int(),
    none: z.number().int(),
  }),
  /** Customers without a statement, by reason. */
  no_statement: z.record(z.enum(NO_STATEMENT_REASONS), z.number().int()),
  recurring: countAndTotal,
  late_fees: countAndTotal,
});
export type ProductionFigures = z.output<typeof productionFiguresSchema>;

/** One client of a cycle as a run would take it. */
export const productionClientSchema = z.object({
  client_id: z.number().int(),
  client_no: z.number().int(),
  client_name: z.string(),
  normal_cycle: z.number().int(),
  skip_reason: z.enum(clientSkipReasons).nullable(),
  skip_label: z.string().nullable(),
  period_start: dateString.nullable(),
  period_end: dateString.nullable(),
  figures: productionFiguresSchema,
});
export type ProductionClient = z.output<typeof productionClientSchema>;

export const productionCyclePreviewSchema = z.object({
  cycle: z.number().int(),
  run_date: dateString,
  /** Why POST would refuse this run date (too far ahead, before a last billing), or null. */
  run_refusal: z.string().nullable(),
  clients: z.array(productionClientSchema),
  /** The clients that would bill, added up. */
  totals: productionFiguresSchema,
});
export type ProductionCyclePreview = z.output<typeof productionCyclePreviewSchema>;

/** One customer's part of a run. */
export const productionCustomerSchema = z.object({
  customer_id: z.number().int(),
  customer_no: z.number().int(),
  customer_name: z.string(),
  pull_flag: z.string(),
  finance_flag: z.string(),
  delete_flag: z.string().nullable(),
  balance: amountString,
  new_balance: amountString,
  statement: z.boolean(),
  delivery: z.enum(["mail", "email", "both", "pulled"]).nullable(),
  no_statement_reason: z.enum(NO_STATEMENT_REASONS).nullable(),
  no_statement_label: z.string().nullable(),
  recurring: countAndTotal,
  late_fee: amountString,
  late_fee_description: z.string(),
});
export type ProductionCustomer = z.output<typeof productionCustomerSchema>;

export const productionClientPreviewSchema = productionClientSchema.extend({
  run_date: dateString,
  count: z.number().int(),
  results: z.array(productionCustomerSchema),
});
export type ProductionClientPreview = z.output<typeof productionClientPreviewSchema>;

export const productionLineSchema = z.object({
  kind: z.enum(["recurring", "late_fee"]),
  code: z.number().int(),
  description: z.string(),
  service_date: dateString,
  rate: z.string(),
  quantity: z.string(),
  amount: amountString,
});

export const productionCustomerPreviewSchema = productionCustomerSchema.extend({
  client_id: z.number().int(),
  run_date: dateString,
  period_start: dateString.nullable(),
  period_end: dateString.nullable(),
  ageing: z.object({
    current: amountString,
    days30: amountString,
    days60: amountString,
    days90: amountString,
    over90: amountString,
  }),
  lines: z.array(productionLineSchema),
});
export type ProductionCustomerPreview = z.output<typeof productionCustomerPreviewSchema>;

export const productionRunStatuses = ["queued", "running", "done", "failed"] as const;
export type ProductionRunStatus = (typeof productionRunStatuses)[number];

/** One client's part of a run. */
export const productionRunClientSchema = z.object({
  client_id: z.number().int(),
  client_name: z.string(),
  status: z.enum(productionRunStatuses),
  period_start: dateString,
  period_end: dateString,
  total: z.number().int(),
  done: z.number().int(),
  job_run_id: z.number().int().nullable(),
  error: z.string().nullable(),
  figures: productionFiguresSchema.nullable(),
  /** This part's statement emails: how many are queued, being sent, sent and failed. */
  emails: z.object({
    total: z.number().int(),
    queued: z.number().int(),
    sending: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
  }),
  /** The autopay card run queued after this part's statements (GET /api/card-runs/{id}/), or null. */
  autopay_job_id: z.number().int().nullable(),
  /** The part's undo once asked for (POST .../undo/): its job, who asked, when it finished, what it took back. */
  undo: z
    .object({
      job_id: z.number().int(),
      status: z.enum(["queued", "running", "succeeded", "failed"]),
      error: z.string().nullable(),
      requested_by: z.number().int().nullable(),
      requested_by_name: z.string().nullable(),
      requested_at: timestampString,
      undone_at: timestampString.nullable(),
      removed: z
        .object({
          statements: z.number().int(),
          entries: z.number().int(),
          pools: z.number().int(),
          emails: z.number().int(),
        })
        .nullable(),
    })
    .nullable(),
  /** What the server accepts on the part now: Admin Processing offers exactly these. */
  actions: z.array(z.enum(RUN_PART_ACTIONS)),
});

export const productionRunSchema = z.object({
  id: z.number().int(),
  cycle: z.number().int(),
  run_date: dateString,
  status: z.enum(productionRunStatuses),
  /** Customers done of total, over every client of the run. */
  total: z.number().int(),
  done: z.number().int(),
  client_ids: z.array(z.number().int()).nullable(),
  clients: z.array(productionRunClientSchema),
  skipped: z.array(
    z.object({ client_id: z.number().int(), client_name: z.string(), reason: z.string(), label: z.string() }),
  ),
  /** The finished clients' figures added up. */
  figures: productionFiguresSchema,
  started_by: z.number().int().nullable(),
  created: timestampString,
  finished_at: timestampString.nullable(),
  /** What the server accepts on the run now (rebuild_pools only when a pool is failed, deleted or missing). */
  actions: z.array(z.enum(RUN_ACTIONS)),
});
export type ProductionRun = z.output<typeof productionRunSchema>;
export const productionRunPageSchema = z.object({
  count: z.number().int(),
  results: z.array(productionRunSchema),
});

/** GET dailyproduction: each admin cycle with its clients and last run. */
export const productionCycleSummarySchema = z.object({
  cycle: z.number().int(),
  clients: z.number().int(),
  last_run: productionRunSchema.nullable(),
});
export const productionCycleListSchema = z.object({
  count: z.number().int(),
  results: z.array(productionCycleSummarySchema),
});
export type ProductionCycleSummary = z.output<typeof productionCycleSummarySchema>;

export const cycleParamsSchema = z.object({ n: integerParam({ min: 1, max: 28 }) });
export const productionClientParamsSchema = z.object({ id: integerParam({ min: 1 }) });
export const productionCustomerParamsSchema = z.object({
  id: integerParam({ min: 1 }),
  customer_id: integerParam({ min: 1 }),
});
/** A preview's run: its date (default today) and, as on the run's confirmation, a first run's catch-up. */
export const runDateQuerySchema = z.looseObject({
  run_date: calendarDate().optional(),
  catch_up: queryFlag.optional(),
});
export const productionClientQuerySchema = listQuerySchema.extend({
  run_date: calendarDate().optional(),
  catch_up: queryFlag.optional(),
});
export const startProductionRunSchema = z.object({
  run_date: calendarDate().optional(),
  client_ids: z.array(z.number().int().positive()).min(1).optional(),
  /** A client's first run bills one cycle; true bills every cycle since its start date (at most 12 months). */
  catch_up: z.boolean().optional(),
});
export type StartProductionRun = z.output<typeof startProductionRunSchema>;
/** POST productionruns/{id}/undo/: the client whose part is undone. */
export const productionUndoQuerySchema = z.looseObject({ client_id: integerParam({ min: 1 }) });
export const productionRunListQuerySchema = listQuerySchema.extend({
  cycle: integerParam({ min: 1, max: 28 }).optional(),
});
