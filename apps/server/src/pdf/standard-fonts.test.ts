import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import { newBillDocument, collectPdf } from "../modules/invoices/bill-layout.pdf.js";
import { drawStatement } from "../modules/statements/statement-page.pdf.js";
import { pdfText } from "../test-support/pdf-text.js";
import { sampleStatement } from "../test-support/sample-statement.js";
import { newPdfDocument } from "./standard-fonts.js";

type AfmParser = { parse: (contents: string) => void };

/** Counts pdfkit's AFM metric parses (its AFMFont.parse) while `work` runs. */
async function countFontParses(work: () => Promise<void>): Promise<number> {
  const probe = new PDFDocument({ autoFirstPage: false }) as unknown as { _font: { font: object } };
  const afm = Object.getPrototypeOf(probe._font.font) as AfmParser;
  const original = afm.parse;
  let parses = 0;
  afm.parse = function (this: unknown, contents: string) {
    parses += 1;
    original.call(this, contents);
  };
  try {
    await work();
  } finally {
    afm.parse = original;
  }
  return parses;
}

async function statementPdf(statementNum: number): Promise<Buffer> {
  const doc = newBillDocument(`Statement ${statementNum}`);
  drawStatement(doc, sampleStatement(statementNum));
  return collectPdf(doc);
}

describe("standard fonts parsed once", () => {
  it("draws a statement after the first without parsing any font metrics again", async () => {
    await statementPdf(1);
    const parses = await countFontParses(async () => {
      for (let n = 2; n <= 6; n++) await statementPdf(n);
    });
    expect(parses).toBe(0);
  });

  it("prints the same statement as pdfkit's own fonts, with only the fonts it uses embedded", async () => {
    const ours = await statementPdf(1042);
    const plain = new PDFDocument({ size: "LETTER", margins: { top: 45, left: 50, right: 50, bottom: 30 } });
    drawStatement(plain, sampleStatement(1042));
    const theirs = await collectPdf(plain);
    const text = await pdfText(ours);
    expect(text).toContain("Dana Whitfield");
    expect(text).toContain("$162.50");
    expect(text).toBe(await pdfText(theirs));
    const embedded = (pdf: Buffer) =>
      [...pdf.toString("latin1").matchAll(/\/BaseFont \/([\w-]+)/g)].map((m) => m[1]).sort();
    expect(embedded(ours)).toEqual(embedded(theirs));
  });

  it("keeps a font it does not prepare working, and the document's default font", async () => {
    const doc = newPdfDocument({ font: "Courier" });
    doc.text("Fixed width").font("Times-Roman").text("Serif").font("Helvetica-Bold").text("Bold");
    const text = await pdfText(await collectPdf(doc));
    expect(text).toMatch(/Fixed width\s+Serif\s+Bold/);
  });
});
