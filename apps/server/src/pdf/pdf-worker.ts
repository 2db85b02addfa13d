import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { PoolCover } from "../modules/delivery/pool-cover.pdf.js";
import type { StatementDocument } from "../modules/statements/statement-page.pdf.js";
import type { PdfWorkerReply, PdfWorkerRequest } from "./pdf-worker-protocol.js";

type Pending = { resolve: (reply: PdfWorkerReply) => void; reject: (error: Error) => void };
type Request = PdfWorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

/**
 * The worker file beside this one: compiled JavaScript after the build. In development and tests
 * (TypeScript through tsx or vitest) the .ts file, behind a small module that registers tsx in the
 * thread first (Node 20 does not pass `--import` hooks on to worker threads).
 */
function workerEntry(): { url: URL; execArgv: string[] } {
  if (!import.meta.url.endsWith(".ts"))
    return { url: new URL("./render-pdfs.worker.js", import.meta.url), execArgv: [] };
  const tsx = path.join(
    path.dirname(createRequire(import.meta.url).resolve("tsx/package.json")),
    "dist/esm/api/index.mjs",
  );
  const target = new URL("./render-pdfs.worker.ts", import.meta.url).href;
  const source = `import { register } from ${JSON.stringify(pathToFileURL(tsx).href)};
register();
await import(${JSON.stringify(target)});`;
  return {
    url: new URL(`data:text/javascript,${encodeURIComponent(source)}`),
    execArgv: ["--conditions=source"],
  };
}

/**
 * One PDF worker thread. It holds the event loop only while it has work, so an idle pool never
 * keeps a process (a CLI, a test) from exiting.
 */
export class PdfWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | null = null;

  constructor() {
    const entry = workerEntry();
    this.worker = new Worker(entry.url, { execArgv: entry.execArgv });
    this.worker.unref();
    this.worker.on("message", (reply: PdfWorkerReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.settled(reply.id);
      if (reply.kind === "error") waiting.reject(new Error(reply.message));
      else waiting.resolve(reply);
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => {
      fail(new Error(`the PDF worker stopped (exit code ${code})`));
    });
  }

  /** Requests sent and not yet answered. */
  get busy(): number {
    return this.pending.size;
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  private call<K extends PdfWorkerReply["kind"]>(
    request: Request,
    expect: K,
  ): Promise<Extract<PdfWorkerReply, { kind: K }>> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve: (reply) =>
          reply.kind === expect
            ? resolve(reply as Extract<PdfWorkerReply, { kind: K }>)
            : reject(new Error(`the PDF worker answered ${reply.kind} to ${request.kind}`)),
        reject,
      });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ ...request, id });
    });
  }

  /** Statements drawn into one PDF, each from a new page (after a cover sheet if given). */
  async batch(
    title: string,
    documents: StatementDocument[],
    cover?: PoolCover,
  ): Promise<{ file: Buffer; pages: number[] }> {
    const reply = await this.call({ kind: "batch", title, documents, cover }, "batched");
    return {
      file: Buffer.from(reply.file.buffer, reply.file.byteOffset, reply.file.byteLength),
      pages: reply.pages,
    };
  }

  /** Each statement as its own PDF, with its page count. */
  async render(documents: StatementDocument[]): Promise<{ files: Buffer[]; pages: number[] }> {
    const reply = await this.call({ kind: "render", documents }, "rendered");
    return {
      files: reply.files.map((file) => Buffer.from(file.buffer, file.byteOffset, file.byteLength)),
      pages: reply.pages,
    };
  }

  async destroy(): Promise<void> {
    await this.worker.terminate();
  }
}
