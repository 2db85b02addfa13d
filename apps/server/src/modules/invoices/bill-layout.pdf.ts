import { eq } from "drizzle-orm";
import { formatRateUsd, formatUsd, toQuantity } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { clients, type customers } from "../../db/tables.js";
import { notFound } from "../../http/errors.js";
import { newPdfDocument } from "../../pdf/standard-fonts.js";

// The look shared by invoices and statements: the client's letterhead, the customer's
// address in the window position, a facts box, the table of ledger lines, messages and
// page numbers. Amounts arrive as decimal strings and are only formatted here.

export type Pdf = PDFKit.PDFDocument;

export const PAGE = { left: 50, right: 562, width: 512, top: 45, footer: 742, contentBottom: 722 } as const;
export const INK = "#1d2733";
export const MUTED = "#5b6673";
export const ACCENT = "#1c3d5a";
export const TINT = "#eef2f6";
export const RULE = "#c9d2dc";

/** The client's letterhead and bill messages. */
export type BillClient = {
  name: string;
  addressLines: string[];
  phone: string;
  email: string;
  terms: string;
  billMessages: string[];
  invoiceMessage: string;
};

export type BillCustomer = {
  name: string;
  customerNo: number;
  addressLines: string[];
  message: string;
};

export type BillLine = {
  serviceDate: string;
  code: number;
  description: string;
  quantity: string;
  rate: string;
  /** Signed effect on the balance: payments and credits print negative. */
  ledgerAmount: string;
  codeType: string;
  voided: boolean;
};

export function newBillDocument(title: string): Pdf {
  return newPdfDocument({
    size: "LETTER",
    margins: { top: PAGE.top, left: PAGE.left, right: 612 - PAGE.right, bottom: 30 },
    bufferPages: true,
    info: { Title: title, Creator: "Cyclebill" },
  });
}

export function collectPdf(doc: Pdf): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  return new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.end();
  });
}

/** Stored phones read "(512)-555-0100"; 0000000000 means none (the spec hides it). */
export function displayPhone(phone: string): string {
  if (phone === "" || phone === "0000000000") return "";
  return phone.replace(")-", ") ");
}

/** MM/DD/YYYY, as US bills print dates. */
export function usDate(isoDate: string): string {
  const [year, month, day] = isoDate.split("-");
  return `${month}/${day}/${year}`;
}

/** Rates keep up to 5 places but print at least 2: "$12.50", "$0.33333" (the screens' rule too). */
export function displayRate(rate: string): string {
  return formatRateUsd(rate);
}

function cityLine(city: string, state: string, zip: string, zip4 = ""): string {
  const fullZip = zip4 ? `${zip}-${zip4}` : zip;
  const place = [city, state].filter((part) => part !== "").join(", ");
  return [place, fullZip].filter((part) => part !== "").join(" ");
}

export async function loadBillClient(db: Executor, clientId: number): Promise<BillClient> {
  const [client] = await db.select().from(clients).where(eq(clients.id, clientId)).limit(1);
  if (!client) throw notFound();
  return {
    name: client.clientName,
    addressLines: [
      client.address1,
      client.address2,
      client.address3,
      cityLine(client.city, client.state, client.zip, client.zip4),
    ].filter((line) => line.trim() !== ""),
    phone: displayPhone(client.busPhone),
    email: client.email,
    terms: client.termsMessage,
    billMessages: [client.billMessageLine1, client.billMessageLine2, client.billMessageLine3].filter(
      (line) => line.trim() !== "",
    ),
    invoiceMessage: client.biMessage,
  };
}

export function billCustomer(customer: typeof customers.$inferSelect): BillCustomer {
  const company =
    customer.companyName && customer.companyName !== customer.customerName ? [customer.companyName] : [];
  return {
    name: customer.customerName,
    customerNo: customer.customerNo,
    addressLines: [
      ...company,
      customer.address1,
      customer.address2,
      customer.address3,
      cityLine(customer.city, customer.state, customer.zip),
    ].filter((line) => line.trim() !== ""),
    message: customer.message,
  };
}

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
  doc
    .font("Helvetica-Bold")
    .fontSize(7.5)
    .fillColor(MUTED)
    .text("BILL TO", PAGE.left, addressTop, { characterSpacing: 1 });
  doc
    .font("Helvetica-Bold")
    .fontSize(11)
    .fillColor(INK)
    .text(customer.name, PAGE.left, addressTop + 12, { width: 280 });
  doc.font("Helvetica").fontSize(10).fillColor(INK);
  for (const line of customer.addressLines) doc.text(line, { width: 280 });
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
    return Math.max(addressBottom, top + 50) + 22;
  }
  return addressBottom + 22;
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

/** A row of labelled figure boxes (account summary, ageing); the last one may be emphasised. */
export function drawFigureBoxes(
  doc: Pdf,
  y: number,
  boxes: { label: string; value: string; emphasis?: boolean }[],
): number {
  const gap = 6;
  const width = (PAGE.width - gap * (boxes.length - 1)) / boxes.length;
  boxes.forEach((box, index) => {
    const x = PAGE.left + index * (width + gap);
    if (box.emphasis) doc.rect(x, y, width, 38).fill(ACCENT);
    else doc.rect(x, y, width, 38).fill(TINT);
    // Long labels shrink to fit their box rather than wrap into the figure.
    const label = box.label.toUpperCase();
    doc.font("Helvetica-Bold").fontSize(7);
    const fitted = Math.min(7, (7 * (width - 10)) / doc.widthOfString(label));
    doc
      .fontSize(fitted)
      .fillColor(box.emphasis ? "#cfe0ee" : MUTED)
      .text(label, x + 5, y + 7, { width: width - 10, align: "center", lineBreak: false });
    doc
      .font("Helvetica-Bold")
      .fontSize(11)
      .fillColor(box.emphasis ? "#ffffff" : INK)
      .text(box.value, x + 6, y + 20, { width: width - 12, align: "center", lineBreak: false });
  });
  return y + 38;
}

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
  text: { continuation: string; empty: string },
  bottom: number = PAGE.contentBottom,
): number {
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
    if (top + ROW > limit) {
      doc.addPage();
      limit = PAGE.contentBottom;
      top = drawLineHeader(doc, drawContinuationHeader(doc, text.continuation));
    }
    if (index % 2 === 1) doc.rect(PAGE.left, top, PAGE.width, ROW).fill(TINT);
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
      doc.text(cells[cell] ?? "", x + 6, top + 4.5, {
        width: column.width - 12,
        align: column.align,
        lineBreak: false,
        ellipsis: true,
      });
      x += column.width;
    });
    top += ROW;
  });
  doc.moveTo(PAGE.left, top).lineTo(PAGE.right, top).lineWidth(0.75).strokeColor(RULE).stroke();
  return top;
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
  page: { limit: number; continuation: string },
): number {
  const present = notes
    .map((note) => ({ title: note.title, text: note.lines.filter((line) => line.trim() !== "").join("\n") }))
    .filter((note) => note.text !== "");
  if (present.length === 0) return y;
  const gap = 24;
  const width = (PAGE.width - gap) / 2;
  const columns: (typeof present)[] = [[], []];
  present.forEach((note, index) => columns[index % 2]?.push(note));
  doc.font("Helvetica").fontSize(9);
  const heightOf = (column: typeof present) =>
    column.reduce((total, note) => total + 11 + doc.heightOfString(note.text, { width }) + 10, 0);
  const height = Math.max(...columns.map(heightOf));
  let top = y;
  if (top + height > page.limit) top = continuePage(doc, page.continuation);
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

/** "Page n of m" and a label on each page of one document within the file. */
export function numberPages(doc: Pdf, ranges: { first: number; last: number; label: string }[]): void {
  for (const range of ranges) {
    const total = range.last - range.first + 1;
    for (let page = range.first; page <= range.last; page += 1) {
      doc.switchToPage(page);
      doc
        .moveTo(PAGE.left, PAGE.footer - 6)
        .lineTo(PAGE.right, PAGE.footer - 6)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
      doc
        .font("Helvetica")
        .fontSize(7.5)
        .fillColor(MUTED)
        .text(range.label, PAGE.left, PAGE.footer, { width: 300, lineBreak: false });
      doc.text(`Page ${page - range.first + 1} of ${total}`, PAGE.right - 150, PAGE.footer, {
        width: 150,
        align: "right",
        lineBreak: false,
      });
    }
  }
}

/** The index of the page being drawn. */
export function currentPage(doc: Pdf): number {
  const range = doc.bufferedPageRange();
  return range.start + range.count - 1;
}
