import { and, asc, eq } from "drizzle-orm";
import {
  displayInvoiceNum,
  formatUsd,
  invoiceFileName,
  isNegativeAmount,
  isZeroAmount,
  negateAmount,
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
  billCustomer,
  collectPdf,
  continuePage,
  currentPage,
  drawBillHeader,
  drawBillLines,
  drawNotes,
  drawTotals,
  loadBillClient,
  newBillDocument,
  numberPages,
  usDate,
  type BillLine,
} from "./bill-layout.pdf.js";

/** The invoice as the customer gets it: letterhead, address, lines, totals, terms and messages. */
export async function renderInvoicePdf(db: Database, tenant: TenantContext, id: number): Promise<PdfFile> {
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
  // The spec offers Get PDF only once an invoice is no longer open: its lines may still change.
  const refusal = offeredInvoiceRefusal({ status: invoice.invoiceStatus }, "pdf");
  if (refusal) throw new HttpError(409, { detail: refusal });
  const client = await loadBillClient(db, tenant.clientId);
  const customer = billCustomer(found.customer);
  const rows = await db
    .select({
      id: transactions.id,
      voidsTransactionId: transactions.voidsTransactionId,
      serviceDate: transactions.serviceDate,
      code: codes.code,
      codeType: codes.codeType,
      taxable: codes.taxable,
      description: transactions.description,
      quantity: transactions.quantity,
      rate: transactions.rate,
      ledgerAmount: transactions.ledgerAmount,
      voided: transactions.voided,
    })
    .from(transactions)
    .innerJoin(codes, and(eq(codes.clientId, transactions.clientId), eq(codes.id, transactions.codeId)))
    .where(and(eq(transactions.clientId, tenant.clientId), eq(transactions.invoiceId, id)))
    .orderBy(asc(transactions.serviceDate), asc(transactions.id));
  // A voided line prints at its amount, marked, followed by its offset (the void), so the lines
  // add up to the total; a void already on the invoice is its own line.
  const offsetsHere = new Set(rows.map((row) => row.voidsTransactionId).filter((id) => id !== null));
  const lines: BillLine[] = rows.flatMap(({ id, voidsTransactionId: _voids, ...line }) =>
    line.voided && !offsetsHere.has(id)
      ? [
          line,
          {
            ...line,
            description: `Void of ${line.description}`.slice(0, 60),
            ledgerAmount: negateAmount(line.ledgerAmount),
            voided: false,
          },
        ]
      : [line],
  );
  const amounts = lines.map((line) => line.ledgerAmount);
  const credits = sumAmounts(amounts.filter(isNegativeAmount));
  const charges = sumAmounts(amounts.filter((amount) => !isNegativeAmount(amount)));
  const total = sumAmounts(amounts);

  const number = displayInvoiceNum(invoice.invoiceNum);
  const doc = newBillDocument(`Invoice ${number}`);
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
  y = drawBillLines(doc, y, lines, { continuation, empty: "No transactions are on this invoice." });
  if (y + 80 > PAGE.contentBottom) y = continuePage(doc, continuation);
  // The same rule as the Status tab; with no tax rate in the client record it is the taxable base,
  // printed for the customer's records and not added to the total.
  const taxable = taxableCharges(
    found.customer.taxStatus,
    rows.map((row) => ({ ...row, amount: row.ledgerAmount })),
  );
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
  numberPages(doc, [{ first: 0, last: currentPage(doc), label: `${client.name} · Invoice ${number}` }]);
  return {
    fileName: invoiceFileName(invoice.invoiceNum, invoice.statementId),
    content: await collectPdf(doc),
  };
}
