import { z } from "zod";
import { integerParam } from "../api/list-query.js";
import { dateString, timestampString } from "../api/page-schema.js";

/** A time of day, HH:MM on a 24-hour clock, in the provider's time zone (BILLING_TIME_ZONE). */
export const runTimeField = z
  .string()
  .trim()
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, "Enter a time as HH:MM (00:00 to 23:59).");

/** A cycle day's schedule: it runs by itself at run_time on its day, held for approval when asked. */
export const productionScheduleSchema = z.object({
  cycle: z.number().int(),
  run_time: z.string(),
  requires_approval: z.boolean(),
  updated_at: timestampString,
});
export type ProductionSchedule = z.output<typeof productionScheduleSchema>;

export const productionScheduleListSchema = z.object({
  count: z.number().int(),
  results: z.array(productionScheduleSchema),
  /** The zone the times are in. */
  time_zone: z.string(),
});
export type ProductionScheduleList = z.output<typeof productionScheduleListSchema>;

export const setProductionScheduleSchema = z.strictObject({
  run_time: runTimeField,
  requires_approval: z.boolean().default(false),
});

export const scheduledRunStates = ["due", "waiting_approval", "running", "done", "failed", "held"] as const;
export type ScheduledRunState = (typeof scheduledRunStates)[number];

export const heldClientSchema = z.object({
  client_id: z.number().int(),
  client_name: z.string(),
  reason: z.string(),
});

/** A cycle scheduled today (or a scheduled run still waiting for approval) and where it stands. */
export const scheduledCycleSchema = z.object({
  /** The scheduled run's id once its time came (null while due). */
  id: z.number().int().nullable(),
  cycle: z.number().int(),
  run_date: dateString,
  /** The schedule's time (null once the schedule was removed). */
  run_time: z.string().nullable(),
  requires_approval: z.boolean(),
  state: z.enum(scheduledRunStates),
  /** The production run it started (GET /api/productionruns/{id}/). */
  cycle_run_id: z.number().int().nullable(),
  /** Clients held out of this run (or, while due, that would be), with why. */
  held: z.array(heldClientSchema),
  error: z.string().nullable(),
  approved_at: timestampString.nullable(),
});
export type ScheduledCycle = z.output<typeof scheduledCycleSchema>;

export const scheduledCycleListSchema = z.object({
  count: z.number().int(),
  results: z.array(scheduledCycleSchema),
});
export type ScheduledCycleList = z.output<typeof scheduledCycleListSchema>;

/** A client held out of scheduled runs. */
export const productionHoldSchema = z.object({
  client_id: z.number().int(),
  client_name: z.string(),
  reason: z.string(),
  held_at: timestampString,
});
export type ProductionHold = z.output<typeof productionHoldSchema>;

export const productionHoldListSchema = z.object({
  count: z.number().int(),
  results: z.array(productionHoldSchema),
});

export const setProductionHoldSchema = z.strictObject({
  reason: z.string().trim().min(1, "Say why the client is held.").max(500),
});

export const clientIdParamsSchema = z.object({ client_id: integerParam({ min: 1 }) });
