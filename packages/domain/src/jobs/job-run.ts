import { z } from "zod";
import { listQuerySchema } from "../api/list-query.js";

/** A durable job's lifecycle: queued until a worker plans it, then running until it ends. */
export const jobRunStatuses = ["queued", "running", "succeeded", "failed"] as const;
export type JobRunStatus = (typeof jobRunStatuses)[number];

/** One job run as GET /api/jobs/{id}/ answers it; progress bars poll this. */
export const jobRunSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  /** The job's stable id, e.g. "ledger-check". */
  kind: z.string(),
  status: z.enum(jobRunStatuses),
  /** Items to do (0 until planned), items done, items that failed. */
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  /** What the run is doing now, in words ("queued", "planning", "checking customers", "finished"). */
  step: z.string(),
  error: z.string().nullable(),
  /** The job's own summary once it succeeded (see each job's result schema), else null. */
  result: z.record(z.string(), z.unknown()).nullable(),
  created_by: z.number().int().nullable(),
  created: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type JobRun = z.infer<typeof jobRunSchema>;

export const jobRunPageSchema = z.object({ count: z.number().int(), results: z.array(jobRunSchema) });

/** The job runs list: paging and ordering as every list, plus kind and status filters. */
export const jobRunListQuerySchema = listQuerySchema.extend({
  kind: z.string().max(60).optional(),
  status: z.enum(jobRunStatuses).optional(),
});
export type JobRunListQuery = z.infer<typeof jobRunListQuerySchema>;

/** A customer whose stored figures differ from its ledger. */
export const ledgerMismatchSchema = z.object({
  customer_id: z.number().int(),
  total_balance: z.string(),
  ledger_sum: z.string(),
  ledger_entries: z.number().int(),
  entry_count: z.number().int(),
  ledger_amount_total: z.string(),
  amount_sum: z.string(),
});
export type LedgerMismatchOutput = z.infer<typeof ledgerMismatchSchema>;

/** An issued statement that does not prove itself, with each rule it breaks. */
export const statementMismatchSchema = z.object({
  customer_id: z.number().int(),
  statement_id: z.number().int(),
  statement_num: z.number().int(),
  statement_date: z.string(),
  reasons: z.array(z.string()),
});
export type StatementMismatchOutput = z.infer<typeof statementMismatchSchema>;

/** The result of a finished ledger-check run: the books balance when both lists are empty. */
export const ledgerCheckResultSchema = z.object({
  customers_checked: z.number().int(),
  mismatches: z.array(ledgerMismatchSchema),
  /** Statements whose boxes, lines or balances do not agree with the ledger (of the customers checked). */
  statement_mismatches: z.array(statementMismatchSchema).default([]),
});
export type LedgerCheckResult = z.infer<typeof ledgerCheckResultSchema>;
