import {
  ACCENT,
  INK,
  MUTED,
  PAGE,
  RULE,
  TINT,
  type BillClient,
  type BillCustomer,
  type Pdf,
} from "./bill-layout.pdf.js";

// The top of a bill's pages: the first page's letterhead, facts box and address, the compact
// header of the pages after it, and section titles.

/**
 * Letterhead on the left, the document title and its facts box on the right, then the
 * customer's address. Returns where the body starts.
 */
export function drawBillHeader(
  doc: Pdf,
  options: {
    client: BillClient;
    title: string;
    facts: [string, string][];
    customer: BillCustomer;
    /** A highlighted figure beside the address, e.g. the amount due. */
    highlight?: { label: string; value: string };
    /** Space under the header (a statement keeps it tight to leave room for lines above its stub). */
    gapAfter?: number;
  },
): number {
  const { client, customer } = options;
  doc.rect(0, 0, 612, 6).fill(ACCENT);
  doc
    .font("Helvetica-Bold")
    .fontSize(17)
    .fillColor(ACCENT)
    .text(client.name, PAGE.left, PAGE.top, { width: 290 });
  doc.font("Helvetica").fontSize(9).fillColor(MUTED);
  for (const line of client.addressLines) doc.text(line, { width: 290 });
  if (client.phone) doc.text(`Phone ${client.phone}`, { width: 290 });
  if (client.email) doc.text(client.email, { width: 290 });
  const leftBottom = doc.y;

  const boxX = PAGE.right - 200;
  doc
    .font("Helvetica-Bold")
    .fontSize(24)
    .fillColor(ACCENT)
    .text(options.title.toUpperCase(), boxX, PAGE.top - 4, {
      width: 200,
      align: "right",
      characterSpacing: 1.5,
    });
  let y = PAGE.top + 32;
  options.facts.forEach(([label, value], index) => {
    if (index % 2 === 0) doc.rect(boxX, y - 4, 200, 17).fill(TINT);
    doc
      .font("Helvetica")
      .fontSize(9)
      .fillColor(MUTED)
      .text(label, boxX + 8, y, { width: 90, lineBreak: false });
    doc
      .font("Helvetica-Bold")
      .fontSize(9)
      .fillColor(INK)
      .text(value, boxX + 96, y, { width: 96, align: "right", lineBreak: false });
    y += 17;
  });
  doc
    // Rows are drawn from 4pt above their text, so the box ends 4pt above y.
    .rect(boxX, PAGE.top + 28, 200, y - PAGE.top - 32)
    .lineWidth(0.75)
    .strokeColor(RULE)
    .stroke();

  // The address sits where a #10 window envelope shows it.
  const addressTop = Math.max(leftBottom + 22, y + 14, 150);
  drawAddressBlock(doc, {
    caption: "BILL TO",
    name: customer.name,
    lines: customer.addressLines,
    y: addressTop,
    look: { nameSize: 11, nameGap: 12, lineSize: 10, width: 280 },
  });
  const addressBottom = doc.y;

  if (options.highlight) {
    const top = addressTop + 4;
    doc.rect(boxX, top, 200, 50).fill(ACCENT);
    doc
      .font("Helvetica-Bold")
      .fontSize(8)
      .fillColor("#cfe0ee")
      .text(options.highlight.label.toUpperCase(), boxX + 12, top + 9, {
        width: 176,
        characterSpacing: 1,
        lineBreak: false,
      });
    doc
      .font("Helvetica-Bold")
      .fontSize(18)
      .fillColor("#ffffff")
      .text(options.highlight.value, boxX + 12, top + 23, { width: 176, align: "right", lineBreak: false });
    return Math.max(addressBottom, top + 50) + (options.gapAfter ?? 22);
  }
  return addressBottom + (options.gapAfter ?? 22);
}

/** A new page under the compact header; returns where its content starts. */
export function continuePage(doc: Pdf, continuation: string): number {
  doc.addPage();
  return drawContinuationHeader(doc, continuation) + 6;
}

/** A compact header for the pages after the first. */
export function drawContinuationHeader(doc: Pdf, text: string): number {
  doc.rect(0, 0, 612, 6).fill(ACCENT);
  doc
    .font("Helvetica-Bold")
    .fontSize(10)
    .fillColor(ACCENT)
    .text(text, PAGE.left, PAGE.top, { width: PAGE.width, lineBreak: false });
  return PAGE.top + 24;
}

/** A small-caps heading with a rule under it. */
export function drawSectionTitle(doc: Pdf, title: string, y: number): number {
  doc
    .font("Helvetica-Bold")
    .fontSize(8)
    .fillColor(ACCENT)
    .text(title.toUpperCase(), PAGE.left, y, { characterSpacing: 1, lineBreak: false });
  doc
    .moveTo(PAGE.left, y + 12)
    .lineTo(PAGE.right, y + 12)
    .lineWidth(0.75)
    .strokeColor(RULE)
    .stroke();
  return y + 18;
}

/** A small spaced caption, a bold name under it and the address lines (BILL TO, MAKE PAYMENT TO). */
export function drawAddressBlock(
  doc: Pdf,
  block: {
    caption: string;
    name: string;
    lines: readonly string[];
    y: number;
    look: { nameSize: number; nameGap: number; lineSize: number; width: number };
  },
): void {
  const { look } = block;
  doc
    .font("Helvetica-Bold")
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(block.caption, PAGE.left, block.y, { characterSpacing: 1 });
  doc
    .font("Helvetica-Bold")
    .fontSize(look.nameSize)
    .fillColor(INK)
    .text(block.name, PAGE.left, block.y + look.nameGap, { width: look.width });
  doc.font("Helvetica").fontSize(look.lineSize).fillColor(INK);
  for (const line of block.lines) doc.text(line, { width: look.width });
}
