import { createWriteStream, statSync, type WriteStream } from "node:fs";
import { parentPort } from "node:worker_threads";
import {
  collectPdf,
  currentPage,
  newBillDocument,
  numberPages,
  type Pdf,
} from "../modules/invoices/bill-layout.pdf.js";
import {
  drawStatement,
  statementPageLabel,
  type StatementDocument,
} from "../modules/statements/statement-page.pdf.js";
import { drawPoolCover } from "../modules/delivery/pool-cover.pdf.js";
import type { PdfWorkerReply, PdfWorkerRequest } from "./pdf-worker-protocol.js";

/**
 * A PDF worker thread: draws statements off the main thread. It keeps at most one merged document
 * open (a pool's), appending each batch and flushing every finished statement's pages to the file,
 * so a pool of any size never sits in memory; or renders each statement of a batch as its own file.
 */
let open: { doc: Pdf; out: WriteStream; file: string; started: boolean } | null = null;

/** Draws one statement from a fresh page and numbers its pages; returns how many it took. */
function appendStatement(doc: Pdf, data: StatementDocument, fresh: boolean): number {
  if (!fresh) doc.addPage();
  const first = currentPage(doc);
  drawStatement(doc, data);
  const last = currentPage(doc);
  numberPages(doc, [{ first, last, label: statementPageLabel(data) }]);
  doc.flushPages();
  return last - first + 1;
}

async function handle(request: PdfWorkerRequest): Promise<PdfWorkerReply> {
  switch (request.kind) {
    case "open": {
      if (open) throw new Error("a merged PDF is already open in this worker");
      const doc = newBillDocument(request.title);
      const out = createWriteStream(request.file);
      doc.pipe(out);
      open = { doc, out, file: request.file, started: false };
      if (request.cover) {
        drawPoolCover(doc, request.cover);
        doc.flushPages();
        open.started = true;
      }
      return { id: request.id, kind: "opened" };
    }
    case "append": {
      if (!open) throw new Error("no merged PDF is open");
      const current = open;
      const pages = request.documents.map((data) => {
        const count = appendStatement(current.doc, data, !current.started);
        current.started = true;
        return count;
      });
      return { id: request.id, kind: "appended", pages };
    }
    case "close": {
      if (!open) throw new Error("no merged PDF is open");
      const { doc, out, file } = open;
      open = null;
      await new Promise<void>((resolve, reject) => {
        out.on("finish", resolve);
        out.on("error", reject);
        doc.end();
      });
      return { id: request.id, kind: "closed", bytes: statSync(file).size };
    }
    case "render": {
      const files: Uint8Array[] = [];
      const pages: number[] = [];
      for (const data of request.documents) {
        const doc = newBillDocument(`Statement ${data.statement.statementNum}`);
        const first = currentPage(doc);
        drawStatement(doc, data);
        const last = currentPage(doc);
        numberPages(doc, [{ first, last, label: statementPageLabel(data) }]);
        pages.push(last - first + 1);
        // Its own copy: a Buffer may share a pooled ArrayBuffer, which must not be transferred.
        files.push(new Uint8Array(await collectPdf(doc)));
      }
      return { id: request.id, kind: "rendered", files, pages };
    }
  }
}

const port = parentPort;
if (!port) throw new Error("render-pdfs.worker runs only as a worker thread");
port.on("message", (request: PdfWorkerRequest) => {
  handle(request).then(
    (reply) => {
      const transfer = reply.kind === "rendered" ? reply.files.map((file) => file.buffer as ArrayBuffer) : [];
      port.postMessage(reply, transfer);
    },
    (error: unknown) =>
      port.postMessage({
        id: request.id,
        kind: "error",
        message: error instanceof Error ? error.message : String(error),
      } satisfies PdfWorkerReply),
  );
});
