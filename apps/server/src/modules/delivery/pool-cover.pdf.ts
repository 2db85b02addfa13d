import { INK, MUTED, PAGE, type Pdf } from "../invoices/bill-layout.pdf.js";

/** The first sheet of a pool that ships or stays with the client: what it is and where it goes. */
export type PoolCover = { title: string; lines: string[]; shipTo: string[] };

export function drawPoolCover(doc: Pdf, cover: PoolCover): void {
  doc
    .font("Helvetica-Bold")
    .fontSize(22)
    .fillColor(INK)
    .text(cover.title, PAGE.left, 120, { width: PAGE.width });
  doc.moveDown(0.8).font("Helvetica").fontSize(11).fillColor(MUTED);
  for (const line of cover.lines) doc.text(line, { width: PAGE.width });
  if (cover.shipTo.length === 0) return;
  doc
    .moveDown(2)
    .font("Helvetica-Bold")
    .fontSize(9)
    .fillColor(MUTED)
    .text("SHIP TO", { characterSpacing: 1 });
  doc.moveDown(0.4).font("Helvetica").fontSize(14).fillColor(INK);
  for (const line of cover.shipTo) doc.text(line, { width: PAGE.width });
}
