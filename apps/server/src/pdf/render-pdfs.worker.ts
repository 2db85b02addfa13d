import { parentPort } from "node:worker_threads";
import { collectPdf, newBillDocument, numberPages, type Pdf } from "../modules/invoices/bill-layout.pdf.js";
import { drawStatement, type StatementDocument } from "../modules/statements/statement-page.pdf.js";
import { drawPoolCover } from "../modules/delivery/pool-cover.pdf.js";
import type { PdfWorkerReply, PdfWorkerRequest } from "./pdf-worker-protocol.js";

/**
 * A PDF worker thread: draws statements off the main thread, either a batch of them as one small
 * PDF (a pool's part, which the main thread appends to the pool's merged file) or each statement
 * of a batch as its own file (emails). Fonts are parsed once per thread (standard-fonts.ts).
 */

/**
 * Draws one statement from a fresh page and numbers its pages; returns how many it took, as the
 * drawing counted them (the pool bills a statement of more than one as an overflow).
 */
function appendStatement(doc: Pdf, data: StatementDocument, fresh: boolean): number {
  if (!fresh) doc.addPage();
  const pages = drawStatement(doc, data);
  numberPages(doc, [pages]);
  return pages.last - pages.first + 1;
}

async function handle(request: PdfWorkerRequest): Promise<PdfWorkerReply> {
  switch (request.kind) {
    case "batch": {
      const doc = newBillDocument(request.title);
      let fresh = true;
      if (request.cover) {
        drawPoolCover(doc, request.cover);
        fresh = false;
      }
      const pages = request.documents.map((data, index) => appendStatement(doc, data, fresh && index === 0));
      // Its own copy: a Buffer may share a pooled ArrayBuffer, which must not be transferred.
      return { id: request.id, kind: "batched", file: new Uint8Array(await collectPdf(doc)), pages };
    }
    case "render": {
      const files: Uint8Array[] = [];
      const pages: number[] = [];
      for (const data of request.documents) {
        const doc = newBillDocument(`Statement ${data.statement.statementNum}`);
        pages.push(appendStatement(doc, data, true));
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
      const transfer =
        reply.kind === "rendered"
          ? reply.files.map((file) => file.buffer as ArrayBuffer)
          : reply.kind === "batched"
            ? [reply.file.buffer as ArrayBuffer]
            : [];
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
