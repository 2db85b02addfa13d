import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  varchar,
} from "drizzle-orm/pg-core";
import { createdAtColumn, idColumn, refColumn, updatedAtColumn } from "./columns.js";
import { clients, users } from "./platform.js";

// Progress of durable jobs, read by GET /api/jobs/{id}/. pg-boss keeps the queue itself in its
// own schema; these tables hold what the API shows and what makes a replayed chunk a no-op.

export const jobRunStatus = ["queued", "running", "succeeded", "failed"] as const;

export const jobRuns = pgTable(
  "job_runs",
  {
    clientId: refColumn("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    id: idColumn(),
    /** The job's stable id (its pg-boss queue name), e.g. "ledger-check". */
    kind: varchar("kind", { length: 60 }).notNull(),
    status: varchar("status", { length: 12, enum: jobRunStatus }).notNull().default("queued"),
    /** Items to do (e.g. customers), known once the run is planned. */
    total: integer("total").notNull().default(0),
    done: integer("done").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    /** Chunks planned (null until planned) and chunks recorded: the run ends when they meet. */
    chunkCount: integer("chunk_count"),
    chunksDone: integer("chunks_done").notNull().default(0),
    step: varchar("step", { length: 80 }).notNull().default("queued"),
    error: text("error"),
    result: jsonb("result"),
    createdByUserId: refColumn("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    index("job_runs_created_idx").on(t.clientId, t.createdAt),
  ],
);

/**
 * One row per finished chunk, written in the same transaction as the chunk's results and the
 * run's done increment: the key makes a replayed chunk (after kill -9 and retry) do nothing.
 */
export const jobRunChunks = pgTable(
  "job_run_chunks",
  {
    clientId: refColumn("client_id").notNull(),
    runId: refColumn("run_id").notNull(),
    chunkNo: integer("chunk_no").notNull(),
    done: integer("done").notNull(),
    failed: integer("failed").notNull().default(0),
    result: jsonb("result"),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.runId, t.chunkNo] }),
    foreignKey({ columns: [t.clientId, t.runId], foreignColumns: [jobRuns.clientId, jobRuns.id] }).onDelete(
      "cascade",
    ),
  ],
);
