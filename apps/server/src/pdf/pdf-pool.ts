import { availableParallelism } from "node:os";
import type { PoolCover } from "../modules/delivery/pool-cover.pdf.js";
import type { StatementDocument } from "../modules/statements/statement-page.pdf.js";
import { PdfWorker } from "./pdf-worker.js";

/**
 * The process's PDF threads, one per core by default (PDF_THREADS), shared by every pool build and
 * statement-email job: each batch goes to the thread with the least work waiting. Threads start on
 * first use, parse their fonts once, and live as long as the process (they do not hold it open).
 */
export function pdfThreads(env: Record<string, string | undefined> = process.env): number {
  const value = env.PDF_THREADS?.trim();
  if (!value) return availableParallelism();
  const threads = Number(value);
  if (!Number.isInteger(threads) || threads < 1 || threads > 64)
    throw new Error(`PDF_THREADS must be a whole number from 1 to 64, got "${value}"`);
  return threads;
}

export class PdfPool {
  private workers: PdfWorker[] = [];

  constructor(readonly size: number) {}

  /** The thread with the least work waiting; a thread that died is replaced. */
  private pick(): PdfWorker {
    this.workers = this.workers.filter((worker) => !worker.failed);
    if (this.workers.length < this.size) {
      const fresh = new PdfWorker();
      this.workers.push(fresh);
      return fresh;
    }
    return this.workers.reduce((best, worker) => (worker.busy < best.busy ? worker : best));
  }

  batch(
    title: string,
    documents: StatementDocument[],
    cover?: PoolCover,
  ): Promise<{ file: Buffer; pages: number[] }> {
    return this.pick().batch(title, documents, cover);
  }

  render(documents: StatementDocument[]): Promise<{ files: Buffer[]; pages: number[] }> {
    return this.pick().render(documents);
  }

  async destroy(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((worker) => worker.destroy()));
  }
}

let shared: PdfPool | null = null;

/** The process's one pool of PDF threads. */
export function pdfPool(): PdfPool {
  shared ??= new PdfPool(pdfThreads());
  return shared;
}
