import {
  autopayNotice,
  dueDateText,
  formatUsd,
  isZeroAmount,
  negateAmount,
  printedAmountDue,
  statementDue,
  type StatementDue,
} from "@cyclebill/domain";
import {
  ACCENT,
  INK,
  MUTED,
  PAGE,
  RULE,
  collectPdf,
  currentPage,
  newBillDocument,
  numberPages,
  type BillClient,
  type BillCustomer,
  type BillLine,
  type Pdf,
} from "../invoices/bill-layout.pdf.js";
import { usDate } from "@cyclebill/domain";
import { drawAddressBlock, drawBillHeader, drawSectionTitle } from "../invoices/bill-header.pdf.js";
import { drawBillLines } from "../invoices/bill-lines.pdf.js";
import { drawFigureBoxes, drawFigureStrip, drawNotes } from "../invoices/bill-summary.pdf.js";
import type { StatementRow } from "./create-statement.js";
import { drawCorrectedMark } from "./statement-corrected.pdf.js";

/** The statement's own figures the page prints. */
export type StatementFigures = Pick<
  StatementRow,
  | "statementNum"
  | "statementDate"
  | "previousBalance"
  | "charges"
  | "payments"
  | "creditAdjustments"
  | "debitAdjustments"
  | "lateFees"
  | "newBalance"
  | "currentBalance"
  | "overdue30Days"
  | "overdue60Days"
  | "overdue90Days"
  | "overdueOver90Days"
>;

/** Everything one statement prints. */
export type StatementDocument = {
  client: BillClient;
  customer: BillCustomer;
  statement: StatementFigures;
  /** A production run's preview: not issued, so it has no number and says so. */
  preview?: boolean;
  /** The day after the customer's previous statement, or null for a first statement. */
  periodStart: string | null;
  lines: BillLine[];
  /** Where the customer pays this statement online (issued statements only). */
  payLink?: string;
  /** An autopay customer's stored method and the day it is charged: nothing to pay by hand. */
  autopay?: { method: string; chargeDate: string };
  /** A corrected version (reissued after its period changed): the day it was issued. */
  corrected?: { on: string };
};

const STUB_HEIGHT = 112;
/** A statement's line height: a little tighter than an invoice's, as page 1 shares the stub. */
const STATEMENT_ROW = 14;

function statementNo(data: StatementDocument): string {
  return data.preview ? "Preview" : String(data.statement.statementNum);
}

/**
 * The page-fit rule: page 1 holds this many activity lines above the tear-off stub together with
 * messages and terms of up to two lines each, the customer's note and an address of up to three
 * lines (the demo's one-line message and terms leave room for 14). A longer statement continues on
 * page 2 and is an overflow bill. Pages are counted from the drawing itself (StatementPages).
 */
export const STATEMENT_FIRST_PAGE_LINES = 13;

/** The pages a statement took in its document, and their footer: the one count of its pages. */
export type StatementPages = { first: number; last: number; label: string };

/**
 * Draws one statement from the current page on: header and amount due, the period's account
 * summary, ageing, the entries, messages and terms, and a remittance stub at the foot of the
 * first page. Every statement PDF (single, combined, pool, email) draws with this, and its answer
 * is the statement's page count: the pages printed are the pages billed as overflow.
 */
export function drawStatement(doc: Pdf, data: StatementDocument): StatementPages {
  const first = currentPage(doc);
  const { client, customer, statement } = data;
  drawCorrectedMark(doc, data.corrected);
  const facts: [string, string][] = [
    ["Statement No.", statementNo(data)],
    ["Statement Date", usDate(statement.statementDate)],
  ];
  if (data.periodStart) facts.push(["Period From", usDate(data.periodStart)]);
  facts.push(["Account No.", String(customer.customerNo)]);
  // One answer for the facts, the notice, the notes and the stub (and the documents list's date).
  const due = statementDue({
    statementDate: statement.statementDate,
    newBalance: statement.newBalance,
    dueDays: client.dueDays,
    autopayChargeDate: data.autopay?.chargeDate ?? null,
  });
  const credit = due.kind === "credit";
  const autopay = due.kind === "autopay" ? data.autopay : undefined;
  if (due.kind === "autopay") facts.push(["Autopay on", usDate(due.date)]);
  else if (due.kind === "due") facts.push(["Due Date", dueDateText(statement.statementDate, client.dueDays)]);
  let y = drawBillHeader(doc, {
    client,
    title: "Statement",
    facts,
    customer,
    highlight: {
      label: credit ? "Credit balance" : autopay ? "Autopay amount" : "Amount due",
      value: formatUsd(credit ? negateAmount(statement.newBalance) : printedAmountDue(statement.newBalance)),
    },
    gapAfter: 12,
  });
  if (autopay) {
    doc
      .font("Helvetica-Bold")
      .fontSize(9.5)
      .fillColor(ACCENT)
      .text(
        autopayNotice({
          amount: statement.newBalance,
          method: autopay.method,
          chargeDate: autopay.chargeDate,
        }),
        PAGE.left,
        y,
        { width: PAGE.width },
      );
    y = doc.y + 6;
  }

  y = drawSectionTitle(doc, "Account summary", y);
  // Payments and credits lower the balance, so they print negative: the row adds up.
  // Every box once, in the order they add: previous + charges + late fees + debits − payments − credits.
  const summary = [
    { label: "Previous balance", value: formatUsd(statement.previousBalance) },
    { label: "Charges", value: formatUsd(statement.charges) },
  ];
  if (!isZeroAmount(statement.lateFees))
    summary.push({ label: "Late fees", value: formatUsd(statement.lateFees) });
  summary.push(
    { label: "Debits", value: formatUsd(statement.debitAdjustments) },
    { label: "Payments", value: formatUsd(negateAmount(statement.payments)) },
    { label: "Credits", value: formatUsd(negateAmount(statement.creditAdjustments)) },
  );
  y = drawFigureBoxes(
    doc,
    y + 2,
    [...summary, { label: "New balance", value: formatUsd(statement.newBalance), emphasis: true }],
    30,
  );

  // Page 1 is shared with the stub, so the summary is compact and the ageing one strip: room for
  // STATEMENT_FIRST_PAGE_LINES lines with the messages and terms above the stub (issue 41).
  y = drawFigureStrip(doc, y + 6, "Ageing", [
    { label: "Current", value: formatUsd(statement.currentBalance) },
    { label: "30 days", value: formatUsd(statement.overdue30Days) },
    { label: "60 days", value: formatUsd(statement.overdue60Days) },
    { label: "90 days", value: formatUsd(statement.overdue90Days) },
    { label: "Over 90", value: formatUsd(statement.overdueOver90Days) },
  ]);

  // The stub goes at the foot of the first page, where customers expect to tear it off;
  // the activity flows around it onto further pages when it is long.
  const firstPage = currentPage(doc);
  if (data.preview) drawPreviewMark(doc);
  const stubTop = PAGE.contentBottom - STUB_HEIGHT;
  drawRemittanceStub(doc, data, due, stubTop);
  y = drawSectionTitle(doc, "Account activity", y + 8);
  const continuation = `${client.name} · Statement ${statementNo(data)} · ${customer.name} (continued)`;
  y = drawBillLines(
    doc,
    y + 2,
    data.lines,
    {
      continuation,
      empty: "No new activity on this account since the last statement.",
      rowHeight: STATEMENT_ROW,
    },
    stubTop - 14,
  );
  drawNotes(
    doc,
    y + 10,
    [
      { title: "Messages", lines: client.billMessages },
      // The terms say when to pay by hand ("Due on receipt"); autopay asks nothing, its notice says when.
      { title: "Terms", lines: autopay ? [] : [client.terms] },
      { title: "Note for you", lines: [customer.message] },
    ],
    {
      limit: currentPage(doc) === firstPage ? stubTop - 14 : PAGE.contentBottom,
      continuation,
      // Side by side, one note a column: they take the height of the longest, not of two stacked.
      columns: 3,
    },
  );
  return { first, last: currentPage(doc), label: statementPageLabel(data) };
}

/** A faint diagonal PREVIEW across the page: the statement was not issued. */
function drawPreviewMark(doc: Pdf): void {
  doc.save();
  doc.rotate(-30, { origin: [306, 420] });
  doc
    .font("Helvetica-Bold")
    .fontSize(120)
    .fillColor(ACCENT)
    .fillOpacity(0.07)
    .text("PREVIEW", 306 - 290, 420 - 60, { width: 580, align: "center", lineBreak: false });
  doc.restore();
}

function drawRemittanceStub(doc: Pdf, data: StatementDocument, due: StatementDue, top: number): void {
  const { client, customer, statement } = data;
  doc
    .moveTo(PAGE.left - 20, top)
    .lineTo(PAGE.right + 20, top)
    .dash(4, { space: 3 })
    .lineWidth(0.75)
    .strokeColor(MUTED)
    .stroke()
    .undash();
  doc
    .font("Helvetica-Oblique")
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(
      due.kind === "autopay"
        ? "Paid by autopay: nothing to send. Keep this portion for your records."
        : "Please detach and return this portion with your payment.",
      PAGE.left,
      top + 5,
      {
        width: PAGE.width,
        align: "center",
        lineBreak: false,
      },
    );
  if (data.payLink && due.kind !== "autopay")
    doc
      .font("Helvetica")
      .fontSize(7)
      .fillColor(MUTED)
      .text(`Or pay online: ${data.payLink}`, PAGE.left, top + 14, {
        width: PAGE.width,
        align: "center",
        lineBreak: false,
      });

  const y = top + 24;
  drawAddressBlock(doc, {
    caption: "MAKE PAYMENT TO",
    name: client.name,
    lines: client.addressLines,
    y,
    look: { nameSize: 10, nameGap: 11, lineSize: 9, width: 250 },
  });
  doc
    .font("Helvetica")
    .fontSize(8)
    .fillColor(MUTED)
    .text(`From: ${customer.name}`, PAGE.left, doc.y + 4, { width: 250, lineBreak: false, ellipsis: true });

  const boxX = PAGE.right - 220;
  const rows: [string, string][] = [
    ["Account No.", String(customer.customerNo)],
    ["Statement No.", statementNo(data)],
    ["Statement Date", usDate(statement.statementDate)],
    // Autopay: what is charged when, and no Amount Enclosed (nothing is sent back).
    ...((due.kind === "autopay"
      ? [
          ["Autopay on", usDate(due.date)],
          ["Autopay amount", formatUsd(statement.newBalance)],
        ]
      : [
          ["Amount Due", formatUsd(printedAmountDue(statement.newBalance))],
          ["Amount Enclosed", ""],
        ]) satisfies [string, string][]),
  ];
  rows.forEach(([label, value], index) => {
    const rowY = y + index * 17;
    doc
      .rect(boxX, rowY - 4, 220, 17)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc
      .font(label === "Amount Due" ? "Helvetica-Bold" : "Helvetica")
      .fontSize(8.5)
      .fillColor(label === "Amount Due" ? ACCENT : MUTED)
      .text(label, boxX + 8, rowY, { width: 100, lineBreak: false });
    if (label === "Amount Enclosed")
      doc
        .font("Helvetica")
        .fillColor(INK)
        .text("$", boxX + 112, rowY, { lineBreak: false });
    else
      doc
        .font("Helvetica-Bold")
        .fillColor(INK)
        .text(value, boxX + 112, rowY, { width: 100, align: "right", lineBreak: false });
  });
}

/** The footer of each of a statement's pages. */
export function statementPageLabel(data: StatementDocument): string {
  return `${data.client.name} · Statement ${statementNo(data)} · Account ${data.customer.customerNo}`;
}

/** One PDF holding each statement from a fresh page, each with its own page numbers. */
export async function renderStatementsPdf(title: string, documents: StatementDocument[]): Promise<Buffer> {
  const doc = newBillDocument(title);
  const ranges: StatementPages[] = [];
  documents.forEach((data, index) => {
    if (index > 0) doc.addPage();
    ranges.push(drawStatement(doc, data));
  });
  numberPages(doc, ranges);
  return collectPdf(doc);
}
