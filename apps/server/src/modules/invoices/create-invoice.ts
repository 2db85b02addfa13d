import { auditInvoice } from "./invoice-audit.js";
import { and, eq, inArray, sql } from "drizzle-orm";
import { TRANSACTIONS_NOT_ATTACHABLE_MESSAGE, invoiceActionRefusal } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { invoices, transactions } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError, nonFieldError, notFound } from "../../http/errors.js";
import { attachEntriesToInvoice } from "../ledger/entry-links.js";
import { lockCustomers } from "../ledger/lock-customers.js";

export type InvoiceRow = typeof invoices.$inferSelect;

export type CreateInvoiceInput = {
  customerId: number;
  /** YYYY-MM-DD. */
  invoiceDate: string;
  createdByUserId?: number | null;
};

/** The advisory-lock namespace of invoice numbering (pg_advisory_xact_lock's first key). */
const INVOICE_NUMBERS_LOCK = 0x49_4e_56; // "INV"

/**
 * Opens a new invoice for one customer. Numbers run per client. The customer row is locked
 * first (customers, then invoices: the order postings use), then a per-client advisory lock
 * is held while the next number is taken, so two creates never collide. It used to be the
 * client row FOR UPDATE, which conflicts with the key-share lock a posting's customer_changes
 * insert takes on it: a posting and an invoice deadlocked (a 500).
 */
export async function createInvoice(
  db: Executor,
  tenant: Pick<TenantContext, "clientId">,
  input: CreateInvoiceInput,
): Promise<InvoiceRow> {
  return db.transaction(async (tx) => {
    const customer = (await lockCustomers(tx, tenant.clientId, [input.customerId])).get(input.customerId);
    if (!customer) throw fieldError("customer", "Invalid customer - object does not exist.");
    await lockInvoiceNumbers(tx, tenant.clientId);
    const invoiceNum = await nextInvoiceNum(tx, tenant.clientId);
    const [row] = await tx
      .insert(invoices)
      .values({
        clientId: tenant.clientId,
        invoiceNum,
        customerId: customer.id,
        invoiceDate: input.invoiceDate,
        invoiceStatus: "open",
        createdByUserId: input.createdByUserId ?? null,
      })
      .returning();
    if (!row) throw new Error("invoice not created");
    await auditInvoice(tx, "invoice.create", null, row);
    return row;
  });
}

/**
 * Holds, until the transaction ends, the right to draw the client's next invoice number. Take it
 * after the customer rows, so no one waits for a customer while holding it; postings never take it.
 */
async function lockInvoiceNumbers(tx: Executor, clientId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${INVOICE_NUMBERS_LOCK}::int, ${clientId}::int)`);
}

/** Call holding the invoice-number lock. Numbering starts at 1. */
async function nextInvoiceNum(db: Executor, clientId: number): Promise<number> {
  const [last] = await db
    .select({ max: sql<number | null>`max(${invoices.invoiceNum})` })
    .from(invoices)
    .where(eq(invoices.clientId, clientId));
  return Number(last?.max ?? 0) + 1;
}

/**
 * Puts ledger entries on an open invoice: all of them or none. Each must be the invoice
 * customer's, not voided and on no other invoice. Balances do not move — an invoice only
 * groups ledger entries.
 */
export async function attachTransactions(
  db: Executor,
  tenant: Pick<TenantContext, "clientId">,
  invoiceId: number,
  transactionIds: readonly number[],
): Promise<void> {
  const ids = [...new Set(transactionIds)];
  if (ids.length === 0) return;
  await db.transaction(async (tx) => {
    const [invoice] = await tx
      .select({ id: invoices.id, customerId: invoices.customerId, status: invoices.invoiceStatus })
      .from(invoices)
      .where(and(eq(invoices.clientId, tenant.clientId), eq(invoices.id, invoiceId)))
      .for("update")
      .limit(1);
    if (!invoice) throw notFound();
    const refusal = invoiceActionRefusal(invoice.status, "attach");
    if (refusal) throw nonFieldError(refusal);
    // Lock the rows so a concurrent attach to another invoice cannot slip in between.
    const rows = await tx
      .select({
        id: transactions.id,
        customerId: transactions.customerId,
        voided: transactions.voided,
        invoiceId: transactions.invoiceId,
      })
      .from(transactions)
      .where(and(eq(transactions.clientId, tenant.clientId), inArray(transactions.id, ids)))
      .for("update");
    const attachable = rows.filter(
      (row) =>
        row.customerId === invoice.customerId &&
        !row.voided &&
        (row.invoiceId === null || row.invoiceId === invoice.id),
    );
    if (attachable.length !== ids.length) throw nonFieldError(TRANSACTIONS_NOT_ATTACHABLE_MESSAGE);
    await attachEntriesToInvoice(tx, tenant.clientId, invoice.id, ids);
  });
}
