import { z } from "zod";
import { integerParam, listQuerySchema } from "../api/list-query.js";
import { dateString, timestampString } from "../api/page-schema.js";
import { calendarDate } from "../calendar/calendar-date.js";
import { POOL_FULFILMENTS, POOL_STATES } from "../delivery/pool-rules.js";
import { POOL_ACTIONS } from "../production/run-actions.js";

/** GET /api/pools/: one print pool with its counts, state and progress. */
export const poolSchema = z.object({
  id: z.number().int(),
  pool_name: z.string(),
  pool_date: dateString,
  cycle: z.number().int().nullable(),
  client_id: z.number().int().nullable(),
  client_no: z.number().int().nullable(),
  client_name: z.string(),
  production_run_id: z.number().int().nullable(),
  fulfilment: z.enum(POOL_FULFILMENTS),
  fulfilment_label: z.string(),
  state: z.enum(POOL_STATES),
  statements: z.number().int(),
  pages: z.number().int(),
  /** Statements drawn so far, of `statements` (progress while building). */
  done: z.number().int(),
  file_bytes: z.number().int().nullable(),
  error: z.string().nullable(),
  created: timestampString,
  finished: timestampString.nullable(),
  /** What the server accepts on the pool now: the row offers exactly these. */
  actions: z.array(z.enum(POOL_ACTIONS)),
});
export type PoolRecord = z.output<typeof poolSchema>;

export const poolPageSchema = z.object({ count: z.number().int(), results: z.array(poolSchema) });

export const poolListQuerySchema = listQuerySchema.extend({
  pool_date: calendarDate().optional(),
  cycle: integerParam({ min: 1, max: 28 }).optional(),
  production_run_id: integerParam({ min: 1 }).optional(),
});
export type PoolListQuery = z.output<typeof poolListQuerySchema>;

export const poolNameParamsSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(80)
    // Never a leading dot: "." and ".." are path segments a URL resolves away, not names.
    .regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/, "Not a pool name."),
});

/** One statement's email: queued, sending, sent or failed with the mail server's answer. */
export const STATEMENT_DELIVERY_STATUSES = ["queued", "sending", "sent", "failed"] as const;
export const statementEmailSchema = z.object({
  status: z.enum(STATEMENT_DELIVERY_STATUSES),
  recipient: z.string(),
  attempts: z.number().int(),
  error: z.string().nullable(),
  sent: timestampString.nullable(),
});
export type StatementEmail = z.output<typeof statementEmailSchema>;
