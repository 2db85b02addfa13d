import { usDate } from "@cyclebill/domain";
import { PAGE, type Pdf } from "../invoices/bill-layout.pdf.js";

/** The mark's colour: a correction must catch the eye, as a stamp would. */
const CORRECTED_RED = "#b42318";

/**
 * "CORRECTED" and the day it was issued, in the top margin of the statement's first page (above the
 * header, so the page's layout and what fits above the stub do not change). Drawn only on a
 * corrected version; its number is the original's.
 */
export function drawCorrectedMark(doc: Pdf, corrected: { on: string } | undefined): void {
  if (!corrected) return;
  const text = `CORRECTED STATEMENT · issued ${usDate(corrected.on)} · replaces the one sent before`;
  doc.save();
  doc
    .font("Helvetica-Bold")
    .fontSize(9)
    .fillColor(CORRECTED_RED)
    .text(text, PAGE.left, PAGE.top - 22, { width: PAGE.width, align: "right", lineBreak: false });
  doc.restore();
}
