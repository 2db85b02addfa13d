import { and, asc, count, desc, eq, gte, lte, type SQL } from "drizzle-orm";
import { parseOrdering, resolvePaging, type DocumentListQuery, type Page } from "@cyclebill/domain";
import type { Database, Executor } from "../../db/database.js";
import { customers, invoices } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError, notFound } from "../../http/errors.js";
import {
  customerJoin,
  ledgerLines,
  invoiceSelection,
  invoiceToApi,
  type InvoiceDetail,
  type InvoiceOutput,
} from "./invoice-output.js";

export const invoiceOrderingFields = {
  id: invoices.id,
  invoice_num: invoices.invoiceNum,
  invoice_date: invoices.invoiceDate,
  invoiceDate: invoices.invoiceDate,
  invoice_status: invoices.invoiceStatus,
  customer_id: invoices.customerId,
  customer_name: customers.customerName,
  customer_no: customers.customerNo,
  created: invoices.createdAt,
} as const;

/** Ordering shared by the invoice and statement lists: "a,-b" over known fields, else a 400. */
export function orderByFields<F extends Record<string, Parameters<typeof asc>[0]>>(
  fields: F,
  ordering: string,
): SQL[] {
  const parsed = parseOrdering(ordering, Object.keys(fields));
  if (!parsed.ok) {
    throw fieldError(
      "ordering",
      `Unknown ordering field: ${parsed.unknown.join(", ")}. Allowed: ${Object.keys(fields).join(", ")}.`,
    );
  }
  return parsed.terms.map((term) => {
    const column = fields[term.field] as Parameters<typeof asc>[0];
    return term.descending ? desc(column) : asc(column);
  });
}

/** Invoices of the client, filtered by customer and invoice date, newest first by default. */
export async function listInvoices(
  db: Database,
  tenant: TenantContext,
  query: DocumentListQuery,
): Promise<Page<InvoiceOutput>> {
  const orderBy = orderByFields(invoiceOrderingFields, query.ordering ?? "-invoice_date");
  const conditions: SQL[] = [eq(invoices.clientId, tenant.clientId)];
  if (query.customer_id !== undefined) conditions.push(eq(invoices.customerId, query.customer_id));
  if (query.start_date) conditions.push(gte(invoices.invoiceDate, query.start_date));
  if (query.end_date) conditions.push(lte(invoices.invoiceDate, query.end_date));
  const where = and(...conditions);
  const { limit, offset } = resolvePaging(query);
  const [rows, totals] = await Promise.all([
    db
      .select(invoiceSelection)
      .from(invoices)
      .innerJoin(customers, customerJoin)
      .where(where)
      // The id breaks ties so that pages never repeat or skip a row.
      .orderBy(...orderBy, asc(invoices.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(invoices).where(where),
  ]);
  return { count: Number(totals[0]?.total ?? 0), results: rows.map(invoiceToApi) };
}

/** One invoice with the ledger entries on it. */
export async function getInvoice(db: Executor, tenant: TenantContext, id: number): Promise<InvoiceDetail> {
  const [row] = await db
    .select(invoiceSelection)
    .from(invoices)
    .innerJoin(customers, customerJoin)
    .where(and(eq(invoices.clientId, tenant.clientId), eq(invoices.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return { ...invoiceToApi(row), transactions: await ledgerLines(db, tenant, { invoiceId: id }) };
}
