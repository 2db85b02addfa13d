import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { renderStatementsPdf } from "../modules/statements/statement-page.pdf.js";
import { pdfText } from "../test-support/pdf-text.js";
import { sampleStatement } from "../test-support/sample-statement.js";
import { MergedPdf } from "./merged-pdf.js";
import { PdfPool } from "./pdf-pool.js";

function named(statementNum: number, name: string) {
  const document = sampleStatement(statementNum);
  return { ...document, customer: { ...document.customer, name } };
}

/** pdfinfo's page count: poppler reads the merged file's page tree and cross-references. */
function pageCount(pdf: Uint8Array): number {
  const info = spawnSync("pdfinfo", ["-"], { input: pdf });
  expect(info.status).toBe(0);
  return Number(/Pages:\s+(\d+)/.exec(info.stdout.toString())?.[1]);
}

describe("one PDF from parts drawn on several threads", () => {
  it("keeps the parts' order and every page, whichever thread finished first", async () => {
    const threads = new PdfPool(2);
    try {
      const names = ["Ann First", "Ben Second", "Cy Third", "Di Fourth", "Ed Fifth", "Flo Sixth"];
      const long = {
        ...named(6, "Flo Sixth"),
        lines: Array.from({ length: 60 }, () => sampleStatement().lines[0]!),
      };
      const documents = [...names.slice(0, 5).map((name, index) => named(index + 1, name)), long];
      // Three parts of two statements, drawn at once on two threads.
      const parts = await Promise.all(
        [0, 2, 4].map((start) => threads.batch("Pool P1", documents.slice(start, start + 2))),
      );
      const chunks: Uint8Array[] = [];
      const merged = new MergedPdf(async (bytes) => void chunks.push(Buffer.from(bytes)), "Pool P1");
      await merged.start();
      for (const part of parts) await merged.append(part.file);
      const pages = await merged.finish();
      const pdf = Buffer.concat(chunks);
      const counts = parts.flatMap((part) => part.pages);
      expect(counts.slice(0, 5)).toEqual([1, 1, 1, 1, 1]);
      expect(counts[5]).toBeGreaterThan(1);
      expect(pages).toBe(5 + (counts[5] ?? 0));
      expect(pageCount(pdf)).toBe(pages);
      const text = await pdfText(pdf);
      const order = names.map((name) => text.indexOf(name));
      expect(order.every((at, index) => at >= 0 && (index === 0 || at > (order[index - 1] ?? 0)))).toBe(true);
      expect(text).toContain(`Page 2 of ${counts[5]}`);
    } finally {
      await threads.destroy();
    }
  });

  it("carries a whole PDF's pages unchanged", async () => {
    const single = await renderStatementsPdf("Statement 7", [named(7, "Gus Single")]);
    const chunks: Uint8Array[] = [];
    const merged = new MergedPdf(async (bytes) => void chunks.push(Buffer.from(bytes)), "Copy");
    await merged.start();
    await merged.append(single);
    await merged.finish();
    expect(await pdfText(Buffer.concat(chunks))).toBe(await pdfText(single));
  });
});
