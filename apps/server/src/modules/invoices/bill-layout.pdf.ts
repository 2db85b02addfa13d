import { formatRateUsd } from "@cyclebill/domain";
import { newPdfDocument } from "../../pdf/standard-fonts.js";

// The look shared by invoices and statements: the client's letterhead, the customer's
// address in the window position, a facts box, the table of ledger lines, messages and
// page numbers. Amounts arrive as decimal strings and are only formatted here. This file holds
// the page, its colours and the bill's parts; the header, the lines table and the summary
// blocks are drawn by bill-header, bill-lines and bill-summary.

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
  /** Days from a statement's date to its due date (the client's structured terms). */
  dueDays: number;
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

/** Rates keep up to 5 places but print at least 2: "$12.50", "$0.33333" (the screens' rule too). */
export function displayRate(rate: string): string {
  return formatRateUsd(rate);
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
