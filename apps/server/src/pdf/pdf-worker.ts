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
 * One PDF worker thread, owned by one job while it runs: it renders statements off the main
 * thread (so the API and the job queue stay responsive) while the job reads the next batch.
 */
export class PdfWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | null = null;

  constructor() {
    const entry = workerEntry();
    this.worker = new Worker(entry.url, { execArgv: entry.execArgv });
    this.worker.on("message", (reply: PdfWorkerReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
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
      if (this.pending.size > 0) fail(new Error(`the PDF worker stopped (exit code ${code})`));
    });
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
      this.worker.postMessage({ ...request, id });
    });
  }

  /** Starts one merged PDF written to `file` as statements are appended, after a cover sheet if given. */
  async open(file: string, title: string, cover?: PoolCover): Promise<void> {
    await this.call({ kind: "open", file, title, cover }, "opened");
  }

  /** Appends statements to the open PDF, each from a new page; returns each one's page count. */
  async append(documents: StatementDocument[]): Promise<number[]> {
    return (await this.call({ kind: "append", documents }, "appended")).pages;
  }

  /** Finishes the open PDF; returns its size in bytes. */
  async close(): Promise<number> {
    return (await this.call({ kind: "close" }, "closed")).bytes;
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
