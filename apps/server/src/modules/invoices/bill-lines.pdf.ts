import { formatUsd, toQuantity } from "@cyclebill/domain";
import {
  ACCENT,
  INK,
  MUTED,
  PAGE,
  RULE,
  TINT,
  displayRate,
  type BillLine,
  type Pdf,
} from "./bill-layout.pdf.js";
import { usDate } from "@cyclebill/domain";
import { drawContinuationHeader } from "./bill-header.pdf.js";

// The table of ledger lines, continued over as many pages as it needs.

const lineColumns = [
  { header: "Date", width: 62, align: "left" },
  { header: "Code", width: 42, align: "left" },
  { header: "Description", width: 214, align: "left" },
  { header: "Qty", width: 46, align: "right" },
  { header: "Rate", width: 68, align: "right" },
  { header: "Amount", width: 80, align: "right" },
] as const;
const ROW = 16;

function drawLineHeader(doc: Pdf, y: number): number {
  doc.rect(PAGE.left, y, PAGE.width, ROW + 1).fill(ACCENT);
  let x = PAGE.left;
  doc.font("Helvetica-Bold").fontSize(8.5).fillColor("#ffffff");
  for (const column of lineColumns) {
    doc.text(column.header, x + 6, y + 4.5, {
      width: column.width - 12,
      align: column.align,
      lineBreak: false,
    });
    x += column.width;
  }
  return y + ROW + 1;
}

/**
 * The ledger lines, continuing on new pages (with the header repeated) as needed; on the
 * page it starts on, the table stops at `bottom` (e.g. above a remittance stub).
 * Returns where the table ends.
 */
export function drawBillLines(
  doc: Pdf,
  y: number,
  lines: BillLine[],
  text: { continuation: string; empty: string; strikeVoided?: boolean; rowHeight?: number },
  bottom: number = PAGE.contentBottom,
): number {
  const row = text.rowHeight ?? ROW;
  // The text sits in the middle of its row, whatever the row's height.
  const inset = (row - 7) / 2;
  let limit = bottom;
  let top = drawLineHeader(doc, y);
  if (lines.length === 0) {
    doc
      .font("Helvetica-Oblique")
      .fontSize(9)
      .fillColor(MUTED)
      .text(text.empty, PAGE.left + 6, top + 6, { width: PAGE.width - 12 });
    return top + ROW + 8;
  }
  lines.forEach((line, index) => {
    if (top + row > limit) {
      doc.addPage();
      limit = PAGE.contentBottom;
      top = drawLineHeader(doc, drawContinuationHeader(doc, text.continuation));
    }
    if (index % 2 === 1) doc.rect(PAGE.left, top, PAGE.width, row).fill(TINT);
    // Info lines carry a message, not money.
    const info = line.codeType === "info";
    const cells = [
      usDate(line.serviceDate),
      String(line.code),
      line.voided ? `${line.description} (voided)` : line.description,
      info ? "" : toQuantity(line.quantity),
      info ? "" : displayRate(line.rate),
      info ? "" : formatUsd(line.ledgerAmount),
    ];
    let x = PAGE.left;
    doc
      .font("Helvetica")
      .fontSize(8.5)
      .fillColor(line.voided ? MUTED : INK);
    lineColumns.forEach((column, cell) => {
      doc.text(cells[cell] ?? "", x + 6, top + inset, {
        width: column.width - 12,
        align: column.align,
        lineBreak: false,
        ellipsis: true,
      });
      x += column.width;
    });
    if (line.voided && text.strikeVoided && !info) {
      const width = Math.min(doc.widthOfString(cells[5] ?? ""), 68);
      doc
        .moveTo(PAGE.right - 6 - width, top + inset + 4)
        .lineTo(PAGE.right - 6, top + inset + 4)
        .lineWidth(0.6)
        .strokeColor(MUTED)
        .stroke();
    }
    top += row;
  });
  doc.moveTo(PAGE.left, top).lineTo(PAGE.right, top).lineWidth(0.75).strokeColor(RULE).stroke();
  return top;
}
