import type { Executor } from "../../db/database.js";

/** The jobs that take a run's statements out: a pool's PDF and zip, and a run part's emails. */
export const POOL_BUILD_JOB = "pool-build";
export const STATEMENT_EMAIL_JOB = "statement-email";

export type DeliveryJob =
  | { name: typeof POOL_BUILD_JOB; payload: { poolId: number } }
  | { name: typeof STATEMENT_EMAIL_JOB; payload: { clientId: number; productionRunId: number } };

/** Queues delivery jobs inside the caller's transaction (they commit with the run's last step). */
export type EnqueueDeliveryJobs = (executor: Executor, jobs: readonly DeliveryJob[]) => Promise<void>;

/** What delivery jobs need beyond the database. */
export type DeliveryServices = {
  dataDir: string;
  publicUrl: string;
  /**
   * Tests only: holds an email's lane before it claims the email ("claim") or between the claim
   * and the send ("send"), so a test can put an undo exactly there.
   */
  pause?: (point: "claim" | "send", statementId: number) => Promise<void>;
};
