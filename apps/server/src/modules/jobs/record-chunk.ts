import { and, asc, eq, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/database.js";
import { jobRunChunks, jobRuns } from "../../db/tables.js";
import { finishJobRun, type JobRunKey } from "./job-runs.js";

export type ChunkKey = JobRunKey & { chunkNo: number };

/** What one chunk did: items done and failed, and its results (kept on the chunk's marker). */
export type ChunkWork = { done: number; failed?: number; result: Record<string, unknown> };

export type ChunkOutcome =
  /** This call did the chunk; finished says it was the run's last. */
  | { recorded: true; finished: boolean }
  /** The chunk was done before (a replay after a crash or a duplicate job), or the run ended. */
  | { recorded: false };

export type RunChunkOptions = {
  /** The run's step while chunks remain, e.g. "checking customers". */
  step: string;
  /** The run's result, built inside the last chunk's transaction from every chunk's result. */
  summarize: (chunks: ChunkResult[]) => Record<string, unknown>;
  /** Work that ends the run (e.g. a client's bookkeeping), in the last chunk's transaction. */
  onFinish?: (tx: Executor, chunks: ChunkResult[]) => Promise<void>;
};

export type ChunkResult = { chunkNo: number; done: number; failed: number; result: Record<string, unknown> };

class ChunkAlreadyRecorded extends Error {}

/**
 * Does one chunk of a run exactly once: the chunk's work, its marker row and the run's done
 * increment commit in ONE transaction. A chunk whose marker exists is skipped before any work;
 * two copies racing (an expired job retried while the first still runs) meet on the marker's
 * key, and the loser rolls back all it did.
 */
export async function runChunk(
  db: Database,
  key: ChunkKey,
  work: (tx: Executor) => Promise<ChunkWork>,
  options: RunChunkOptions,
): Promise<ChunkOutcome> {
  try {
    return await db.transaction(async (tx) => {
      const [state] = await tx
        .select({
          status: jobRuns.status,
          marked: sql<boolean>`exists (select 1 from ${jobRunChunks} where ${jobRunChunks.clientId} = ${key.clientId}
            and ${jobRunChunks.runId} = ${key.runId} and ${jobRunChunks.chunkNo} = ${key.chunkNo})`,
        })
        .from(jobRuns)
        .where(and(eq(jobRuns.clientId, key.clientId), eq(jobRuns.id, key.runId)));
      if (!state || state.status !== "running" || state.marked) return { recorded: false };

      const outcome = await work(tx);
      const failed = outcome.failed ?? 0;
      const marker = await tx
        .insert(jobRunChunks)
        .values({ ...keyColumns(key), done: outcome.done, failed, result: outcome.result })
        .onConflictDoNothing()
        .returning({ chunkNo: jobRunChunks.chunkNo });
      if (marker.length === 0) throw new ChunkAlreadyRecorded();

      // The run row is locked last, after the chunk's own rows, so chunks never deadlock.
      const [progress] = await tx
        .update(jobRuns)
        .set({
          done: sql`${jobRuns.done} + ${outcome.done}`,
          failed: sql`${jobRuns.failed} + ${failed}`,
          chunksDone: sql`${jobRuns.chunksDone} + 1`,
          step: options.step,
          updatedAt: sql`now()`,
        })
        .where(and(eq(jobRuns.clientId, key.clientId), eq(jobRuns.id, key.runId)))
        .returning({ chunksDone: jobRuns.chunksDone, chunkCount: jobRuns.chunkCount });
      const finished = progress !== undefined && progress.chunksDone >= (progress.chunkCount ?? Infinity);
      if (finished) {
        const chunks = await chunkResults(tx, key);
        await options.onFinish?.(tx, chunks);
        await finishJobRun(tx, key, options.summarize(chunks));
      }
      return { recorded: true, finished };
    });
  } catch (error) {
    if (error instanceof ChunkAlreadyRecorded) return { recorded: false };
    throw error;
  }
}

/** Every recorded chunk of a run, in chunk order. */
export async function chunkResults(db: Executor, key: JobRunKey): Promise<ChunkResult[]> {
  const rows = await db
    .select()
    .from(jobRunChunks)
    .where(and(eq(jobRunChunks.clientId, key.clientId), eq(jobRunChunks.runId, key.runId)))
    .orderBy(asc(jobRunChunks.chunkNo));
  return rows.map((row) => ({
    chunkNo: row.chunkNo,
    done: row.done,
    failed: row.failed,
    result: (row.result as Record<string, unknown> | null) ?? {},
  }));
}

/**
 * Carries a failed run's recorded chunks (markers, results and counts) over to the run that resumes
 * it, so the resumed run's result and bookkeeping cover every chunk; returns them.
 */
export async function carryChunks(tx: Executor, from: JobRunKey, to: JobRunKey): Promise<ChunkResult[]> {
  const chunks = await chunkResults(tx, from);
  if (chunks.length === 0) return chunks;
  await tx.insert(jobRunChunks).values(
    chunks.map((chunk) => ({
      clientId: to.clientId,
      runId: to.runId,
      chunkNo: chunk.chunkNo,
      done: chunk.done,
      failed: chunk.failed,
      result: chunk.result,
    })),
  );
  await tx
    .update(jobRuns)
    .set({
      done: chunks.reduce((sum, chunk) => sum + chunk.done, 0),
      failed: chunks.reduce((sum, chunk) => sum + chunk.failed, 0),
      chunksDone: chunks.length,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobRuns.clientId, to.clientId), eq(jobRuns.id, to.runId)));
  return chunks;
}

function keyColumns(key: ChunkKey) {
  return { clientId: key.clientId, runId: key.runId, chunkNo: key.chunkNo };
}
