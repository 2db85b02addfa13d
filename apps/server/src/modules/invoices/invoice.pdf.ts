import { and, asc, eq } from "drizzle-orm";
import {
  displayInvoiceNum,
  formatUsd,
  invoiceFileName,
  isNegativeAmount,
  isZeroAmount,
  sumAmounts,
  offeredInvoiceRefusal,
  TAXABLE_CHARGES_LABEL,
  taxableCharges,
} from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { codes, customers, invoices, transactions } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { HttpError, notFound } from "../../http/errors.js";
import type { PdfFile } from "../codes/code-report.pdf.js";
import {
  MUTED,
  PAGE,
  collectPdf,
  currentPage,
  newBillDocument,
  numberPages,
  type BillLine,
  type Pdf,
} from "./bill-layout.pdf.js";
import { usDate } from "@cyclebill/domain";
import { billCustomer, loadBillClient } from "./bill-parties.js";
import { continuePage, drawBillHeader } from "./bill-header.pdf.js";
import { drawBillLines } from "./bill-lines.pdf.js";
import { drawNotes, drawTotals } from "./bill-summary.pdf.js";
import { billLineColumns, offsetJoins, toBillLine } from "./bill-line-columns.js";

/** One invoice ready to draw: its lines with voids spelled out, and the client and customer. */
export type InvoiceDocument = {
  invoice: typeof invoices.$inferSelect;
  client: Awaited<ReturnType<typeof loadBillClient>>;
  customer: ReturnType<typeof billCustomer>;
  /** The taxable charges (the Status tab's rule), printed for the customer's records. */
  taxable: string;
  lines: BillLine[];
};

/**
 * The client's invoice with this id, ready to draw; a 404 when it is not the client's, a 409 while
 * open (the spec offers Get PDF only once an invoice is no longer open: its lines may still change).
 */
export async function loadInvoiceDocument(
  db: Database,
  tenant: TenantContext,
  id: number,
  client?: InvoiceDocument["client"],
): Promise<InvoiceDocument> {
  const [found] = await db
    .select({ invoice: invoices, customer: customers })
    .from(invoices)
    .innerJoin(
      customers,
      and(eq(customers.clientId, invoices.clientId), eq(customers.id, invoices.customerId)),
    )
    .where(and(eq(invoices.clientId, tenant.clientId), eq(invoices.id, id)))
    .limit(1);
  if (!found) throw notFound();
  const { invoice } = found;
  const refusal = offeredInvoiceRefusal({ status: invoice.invoiceStatus }, "pdf");
  if (refusal) throw new HttpError(409, { detail: refusal });
  const rows = await db
    .select({ taxable: codes.taxable, ...billLineColumns })
    .from(transactions)
    .innerJoin(codes, and(eq(codes.clientId, transactions.clientId), eq(codes.id, transactions.codeId)))
    .leftJoin(...offsetJoins.target)
    .leftJoin(...offsetJoins.code)
    .where(and(eq(transactions.clientId, tenant.clientId), eq(transactions.invoiceId, id)))
    .orderBy(asc(transactions.serviceDate), asc(transactions.id));
  // The lines the invoice screen lists: a voided line is marked and counts for nothing (its void is
  // a separate entry, billed on the statement with its own date), so the PDF adds up as the screen's
  // total does and invents no offset line.
  const lines: BillLine[] = rows.map(({ taxable: _taxable, ...line }) => toBillLine(line));
  return {
    invoice,
    client: client ?? (await loadBillClient(db, tenant.clientId)),
    customer: billCustomer(found.customer),
    // With no tax rate in the client record it is the taxable base, not added to the total.
    taxable: taxableCharges(
      found.customer.taxStatus,
      rows.map((row) => ({ ...row, amount: row.ledgerAmount })),
    ),
    lines,
  };
}

/** The invoice as the customer gets it: letterhead, address, lines, totals, terms and messages. */
export async function renderInvoicePdf(db: Database, tenant: TenantContext, id: number): Promise<PdfFile> {
  const loaded = await loadInvoiceDocument(db, tenant, id);
  const doc = newBillDocument(`Invoice ${displayInvoiceNum(loaded.invoice.invoiceNum)}`);
  numberPages(doc, [drawInvoice(doc, loaded)]);
  return {
    fileName: invoiceFileName(loaded.invoice.invoiceNum, loaded.invoice.statementId),
    content: await collectPdf(doc),
  };
}

/** Draws one invoice from the current page on; answers its pages and their footer label. */
export function drawInvoice(
  doc: Pdf,
  { invoice, client, customer, taxable, lines }: InvoiceDocument,
): { first: number; last: number; label: string } {
  const first = currentPage(doc);
  const amounts = lines.filter((line) => !line.voided).map((line) => line.ledgerAmount);
  const credits = sumAmounts(amounts.filter(isNegativeAmount));
  const charges = sumAmounts(amounts.filter((amount) => !isNegativeAmount(amount)));
  const total = sumAmounts(amounts);

  const number = displayInvoiceNum(invoice.invoiceNum);
  const facts: [string, string][] = [
    ["Invoice No.", String(number)],
    ["Invoice Date", usDate(invoice.invoiceDate)],
    ["Account No.", String(customer.customerNo)],
    // The invoice's open/closed state is the office's workflow, not something the customer acts on.
  ];
  if (invoice.statementId !== null) facts.push(["Statement", String(invoice.statementId)]);
  let y = drawBillHeader(doc, {
    client,
    title: "Invoice",
    facts,
    customer,
    highlight: { label: "Invoice total", value: formatUsd(total) },
  });
  const continuation = `${client.name} · Invoice ${number} (continued)`;
  y = drawBillLines(doc, y, lines, {
    continuation,
    empty: "No transactions are on this invoice.",
    // As the invoice screen strikes it: its void is not on the invoice, so it counts for nothing here.
    strikeVoided: true,
  });
  if (y + 80 > PAGE.contentBottom) y = continuePage(doc, continuation);
  y = drawTotals(doc, y, [
    ["Charges", formatUsd(charges)],
    ...(isZeroAmount(taxable) ? [] : [[TAXABLE_CHARGES_LABEL, formatUsd(taxable)] as [string, string]]),
    ["Payments and credits", formatUsd(credits)],
    ["Invoice total", formatUsd(total)],
  ]);
  y = drawNotes(
    doc,
    y + 18,
    [
      { title: "Message", lines: [client.invoiceMessage] },
      { title: "Terms", lines: [client.terms] },
      { title: "Note for you", lines: [customer.message] },
    ],
    { limit: PAGE.contentBottom, continuation },
  );
  doc
    .font("Helvetica-Oblique")
    .fontSize(9)
    .fillColor(MUTED)
    .text("Thank you for your business.", PAGE.left, Math.min(y + 4, PAGE.contentBottom - 12), {
      width: PAGE.width,
      align: "center",
      lineBreak: false,
    });
  return { first, last: currentPage(doc), label: `${client.name} · Invoice ${number}` };
}
