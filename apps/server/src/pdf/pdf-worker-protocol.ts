import type { PoolCover } from "../modules/delivery/pool-cover.pdf.js";
import type { StatementDocument } from "../modules/statements/statement-page.pdf.js";

/** Messages to a PDF worker thread: plain data only (documents carry decimal strings and dates). */
export type PdfWorkerRequest =
  | { id: number; kind: "batch"; title: string; cover?: PoolCover; documents: StatementDocument[] }
  | { id: number; kind: "render"; documents: StatementDocument[] };

export type PdfWorkerReply =
  | { id: number; kind: "batched"; file: Uint8Array; pages: number[] }
  | { id: number; kind: "rendered"; files: Uint8Array[]; pages: number[] }
  | { id: number; kind: "error"; message: string };
