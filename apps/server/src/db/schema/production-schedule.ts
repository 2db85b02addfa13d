import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { idColumn, refColumn } from "./columns.js";
import { clients, cycleRuns, users } from "./platform.js";

/** When a cycle day runs by itself: a time of day in BILLING_TIME_ZONE, and whether it waits for approval. */
export const productionSchedules = pgTable("production_schedules", {
  cycle: smallint("cycle").primaryKey(),
  /** HH:MM, 24-hour, in the provider's time zone. */
  runTime: varchar("run_time", { length: 5 }).notNull(),
  requiresApproval: boolean("requires_approval").notNull().default(false),
  updatedByUserId: refColumn("updated_by_user_id").references(() => users.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const scheduledRunStates = ["starting", "waiting_approval", "started", "held", "failed"] as const;
export type ScheduledRunState = (typeof scheduledRunStates)[number];

/** A client held out of a scheduled run, as the run recorded it. */
export type HeldClient = { clientId: number; reason: string };

/**
 * A cycle's scheduled run of one date: one row per cycle and date (the unique key is what makes two
 * workers, or a worker killed and retried, start it once); it points at the run it started.
 */
export const scheduledRuns = pgTable(
  "scheduled_runs",
  {
    id: idColumn().primaryKey(),
    cycle: smallint("cycle").notNull(),
    runDate: date("run_date").notNull(),
    state: varchar("state", { length: 20, enum: scheduledRunStates }).notNull(),
    requiresApproval: boolean("requires_approval").notNull(),
    cycleRunId: refColumn("cycle_run_id").references(() => cycleRuns.id, { onDelete: "set null" }),
    held: jsonb("held")
      .$type<HeldClient[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    error: text("error"),
    approvedByUserId: refColumn("approved_by_user_id").references(() => users.id, { onDelete: "set null" }),
    approvedAt: timestamp("approved_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("scheduled_runs_cycle_date_key").on(t.cycle, t.runDate)],
);

/** A client held out of scheduled runs, with why (tenant-owned: one row per client). */
export const productionHolds = pgTable("production_holds", {
  clientId: bigint("client_id", { mode: "number" })
    .primaryKey()
    .references(() => clients.id, { onDelete: "cascade" }),
  reason: text("reason").notNull(),
  heldByUserId: refColumn("held_by_user_id").references(() => users.id, { onDelete: "set null" }),
  heldAt: timestamp("held_at", { withTimezone: true }).notNull().defaultNow(),
});
