import { ACCENT, INK, MUTED, PAGE, TINT, type Pdf } from "./bill-layout.pdf.js";
import { continuePage } from "./bill-header.pdf.js";

// The blocks under or beside the lines: figure boxes (account summary, ageing), totals, and notes.

/** A row of labelled figure boxes (account summary, ageing); the last one may be emphasised. */
export function drawFigureBoxes(
  doc: Pdf,
  y: number,
  boxes: { label: string; value: string; emphasis?: boolean }[],
  height = 38,
): number {
  const gap = 6;
  const width = (PAGE.width - gap * (boxes.length - 1)) / boxes.length;
  boxes.forEach((box, index) => {
    const x = PAGE.left + index * (width + gap);
    if (box.emphasis) doc.rect(x, y, width, height).fill(ACCENT);
    else doc.rect(x, y, width, height).fill(TINT);
    // Long labels shrink to fit their box rather than wrap into the figure.
    const label = box.label.toUpperCase();
    doc.font("Helvetica-Bold").fontSize(7);
    const fitted = Math.min(7, (7 * (width - 10)) / doc.widthOfString(label));
    doc
      .fontSize(fitted)
      .fillColor(box.emphasis ? "#cfe0ee" : MUTED)
      .text(label, x + 5, y + (height - 24) / 2, { width: width - 10, align: "center", lineBreak: false });
    doc
      .font("Helvetica-Bold")
      .fontSize(11)
      .fillColor(box.emphasis ? "#ffffff" : INK)
      .text(box.value, x + 6, y + (height - 24) / 2 + 13, {
        width: width - 12,
        align: "center",
        lineBreak: false,
      });
  });
  return y + height;
}

/**
 * One tinted row of labelled figures after a caption ("AGEING  Current $12.00  30 days $0.00 …"): the
 * ageing in a line's height, where boxes would take three.
 */
export function drawFigureStrip(
  doc: Pdf,
  y: number,
  caption: string,
  figures: { label: string; value: string }[],
): number {
  const height = 18;
  doc.rect(PAGE.left, y, PAGE.width, height).fill(TINT);
  doc.rect(PAGE.left, y, 3, height).fill(ACCENT);
  doc
    .font("Helvetica-Bold")
    .fontSize(7.5)
    .fillColor(ACCENT)
    .text(caption.toUpperCase(), PAGE.left + 10, y + 5.5, { characterSpacing: 1, lineBreak: false });
  const start = PAGE.left + 92;
  const width = (PAGE.right - 6 - start) / figures.length;
  figures.forEach((figure, index) => {
    const x = start + index * width;
    doc
      .font("Helvetica")
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(figure.label, x, y + 5.5, { width, lineBreak: false });
    doc
      .font("Helvetica-Bold")
      .fontSize(8.5)
      .fillColor(INK)
      .text(figure.value, x, y + 5, { width: width - 6, align: "right", lineBreak: false });
  });
  return y + height;
}

/** Label/value rows right-aligned under the table; the last one is the bold total. */
export function drawTotals(doc: Pdf, y: number, rows: [string, string][]): number {
  let top = y + 8;
  const x = PAGE.right - 230;
  rows.forEach(([label, value], index) => {
    const last = index === rows.length - 1;
    if (last) {
      doc.rect(x, top - 4, 230, 22).fill(TINT);
      doc.rect(x, top - 4, 3, 22).fill(ACCENT);
    }
    doc
      .font(last ? "Helvetica-Bold" : "Helvetica")
      .fontSize(last ? 11 : 9)
      .fillColor(last ? ACCENT : MUTED)
      .text(label, x + 12, top + (last ? 1 : 0), { width: 120, lineBreak: false });
    doc
      .font("Helvetica-Bold")
      .fontSize(last ? 11 : 9)
      .fillColor(INK)
      .text(value, x + 120, top + (last ? 1 : 0), { width: 100, align: "right", lineBreak: false });
    top += last ? 22 : 15;
  });
  return top;
}

export type BillNote = { title: string; lines: string[] };

/**
 * Messages and terms in two columns (notes alternate left and right), so they take little
 * height; starts a new page when they would not fit above `limit`. Returns where they end.
 */
export function drawNotes(
  doc: Pdf,
  y: number,
  notes: BillNote[],
  page: { limit: number; continuation: string; columns?: number },
): number {
  const present = notes
    .map((note) => ({ title: note.title, text: note.lines.filter((line) => line.trim() !== "").join("\n") }))
    .filter((note) => note.text !== "");
  if (present.length === 0) return y;
  const gap = 24;
  const count = Math.max(1, Math.min(page.columns ?? 2, present.length));
  const width = (PAGE.width - gap * (count - 1)) / count;
  const columns: (typeof present)[] = Array.from({ length: count }, () => []);
  present.forEach((note, index) => columns[index % count]?.push(note));
  doc.font("Helvetica").fontSize(9);
  const heightOf = (column: typeof present) =>
    column.reduce((total, note) => total + 11 + doc.heightOfString(note.text, { width }) + 10, 0);
  const height = Math.max(...columns.map(heightOf));
  let top = y;
  // The gap after the last note is not needed above the limit (a stub): it must not push them over.
  if (top + height - 10 > page.limit) top = continuePage(doc, page.continuation);
  columns.forEach((column, index) => {
    const x = PAGE.left + index * (width + gap);
    let noteTop = top;
    for (const note of column) {
      doc
        .font("Helvetica-Bold")
        .fontSize(7.5)
        .fillColor(MUTED)
        .text(note.title.toUpperCase(), x, noteTop, { width, characterSpacing: 1 });
      doc
        .font("Helvetica")
        .fontSize(9)
        .fillColor(INK)
        .text(note.text, x, noteTop + 11, { width });
      noteTop = doc.y + 10;
    }
  });
  return top + height;
}
