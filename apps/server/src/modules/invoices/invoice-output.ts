import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import {
  displayInvoiceNum,
  invoiceActions,
  toAmount,
  toQuantity,
  type InvoiceDetail,
  type InvoiceRecord,
  type LedgerLine,
} from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { codes, customers, invoices, transactions } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";

export type CustomerRef = { id: number; customer_name: string; customer_no: number };

// The records are declared once, in the domain, for the server and the web alike.
export type InvoiceOutput = InvoiceRecord;
export type { InvoiceDetail, LedgerLine };

// Voided lines stay on the invoice but count for nothing (their void offsets them).
// Correlated sub-selects over the (client_id, invoice_id) index: only the rows on the page pay.
const totalColumn = sql<string>`(select coalesce(sum(t.ledger_amount), 0)::numeric(14,2)::text from transactions t
  where t.client_id = ${invoices.clientId} and t.invoice_id = ${invoices.id} and not t.voided)`;
const countColumn = sql<number>`(select count(*)::int from transactions t
  where t.client_id = ${invoices.clientId} and t.invoice_id = ${invoices.id})`;

export const invoiceSelection = {
  invoice: invoices,
  customerName: customers.customerName,
  customerNo: customers.customerNo,
  total: totalColumn,
  transactionCount: countColumn,
};

export type InvoiceSelectionRow = {
  invoice: typeof invoices.$inferSelect;
  customerName: string;
  customerNo: number;
  total: string;
  transactionCount: number;
};

export const customerJoin = and(
  eq(customers.clientId, invoices.clientId),
  eq(customers.id, invoices.customerId),
) as SQL;

export function invoiceToApi(row: InvoiceSelectionRow): InvoiceOutput {
  const { invoice } = row;
  const customer = { id: invoice.customerId, customer_name: row.customerName, customer_no: row.customerNo };
  return {
    id: invoice.id,
    document: "invoice",
    invoice_num: displayInvoiceNum(invoice.invoiceNum),
    invoice_status: invoice.invoiceStatus,
    invoice_date: invoice.invoiceDate,
    invoiceDate: invoice.invoiceDate,
    customer,
    customer_id: customer.id,
    customer_name: customer.customer_name,
    customer_no: customer.customer_no,
    client: invoice.clientId,
    client_id: invoice.clientId,
    statement: invoice.statementId,
    statement_id: invoice.statementId,
    total: toAmount(row.total),
    transaction_count: Number(row.transactionCount),
    created: invoice.createdAt.toISOString(),
    closed_at: invoice.closedAt?.toISOString() ?? null,
    processed_at: invoice.processedAt?.toISOString() ?? null,
    actions: invoiceActions({ status: invoice.invoiceStatus }),
  };
}

/** The invoices with these ids, in the order given (ids of other clients are simply absent). */
export async function invoiceOutputs(
  db: Executor,
  tenant: Pick<TenantContext, "clientId">,
  ids: readonly number[],
): Promise<InvoiceOutput[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(invoiceSelection)
    .from(invoices)
    .innerJoin(customers, customerJoin)
    .where(and(eq(invoices.clientId, tenant.clientId), inArray(invoices.id, [...ids])));
  const byId = new Map(rows.map((row) => [row.invoice.id, invoiceToApi(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The ledger entries on one invoice or statement, oldest service date first. */
export async function ledgerLines(
  db: Executor,
  tenant: Pick<TenantContext, "clientId">,
  on: { invoiceId: number } | { statementId: number },
): Promise<LedgerLine[]> {
  const onDocument =
    "invoiceId" in on
      ? eq(transactions.invoiceId, on.invoiceId)
      : eq(transactions.statementId, on.statementId);
  const rows = await db
    .select({ transaction: transactions, codeNumber: codes.code, codeType: codes.codeType })
    .from(transactions)
    .innerJoin(codes, and(eq(codes.clientId, transactions.clientId), eq(codes.id, transactions.codeId)))
    .where(and(eq(transactions.clientId, tenant.clientId), onDocument))
    .orderBy(asc(transactions.serviceDate), asc(transactions.id));
  return rows.map(({ transaction, codeNumber, codeType }) => ({
    id: transaction.id,
    code: transaction.codeId,
    displayCode: codeNumber,
    code_type: codeType,
    description: transaction.description,
    quantity: toQuantity(transaction.quantity),
    rate: transaction.rate,
    amount: transaction.amount,
    ledger_amount: transaction.ledgerAmount,
    serviceDate: transaction.serviceDate,
    created: transaction.createdAt.toISOString(),
    transaction_status: transaction.transactionStatus,
    transaction_type: transaction.transactionType,
    voided: transaction.voided,
    invoice: transaction.invoiceId,
    statement: transaction.statementId,
  }));
}
