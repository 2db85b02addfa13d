import { auditInvoice } from "./invoice-audit.js";
import { and, count, eq } from "drizzle-orm";
import {
  INVOICE_CUSTOMER_FIXED_MESSAGE,
  ONLY_INVOICES_DELETABLE_MESSAGE,
  invoiceActionRefusal,
  invoiceStatusAfter,
  type InvoiceAction,
  type InvoiceCreateInput,
  type InvoiceUpdateInput,
} from "@cyclebill/domain";
import type { Database, Executor } from "../../db/database.js";
import { invoices, statements, transactions } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError, nonFieldError, notFound } from "../../http/errors.js";
import { detachInvoiceEntries } from "../ledger/entry-links.js";
import { createInvoice, type InvoiceRow } from "./create-invoice.js";
import { getInvoice } from "./list-invoices.js";
import type { InvoiceDetail } from "./invoice-output.js";
import { businessToday } from "../../clock.js";
import { assertClientCustomer } from "../tenancy/tenant-refs.js";
import { recordChange } from "../audit/record-change.js";

// Every change here is one database transaction that locks the invoice row first, so two
// clicks on Close and Delete cannot interleave. None of them moves a balance: an invoice
// only groups ledger entries.

export function today(): string {
  return businessToday();
}

/** Add invoice: an open, empty invoice for the customer, dated today unless a date is given. */
export async function addInvoice(
  db: Database,
  tenant: TenantContext,
  input: InvoiceCreateInput,
): Promise<InvoiceDetail> {
  const invoice = await createInvoice(db, tenant, {
    customerId: input.customer,
    invoiceDate: input.invoice_date ?? today(),
    createdByUserId: tenant.user.id,
  });
  return getInvoice(db, tenant, invoice.id);
}

async function lockInvoice(
  tx: Executor,
  tenant: TenantContext,
  id: number,
  action: InvoiceAction,
): Promise<InvoiceRow> {
  const [invoice] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.clientId, tenant.clientId), eq(invoices.id, id)))
    .for("update")
    .limit(1);
  if (!invoice) throw notFound();
  const refusal = invoiceActionRefusal(invoice.invoiceStatus, action);
  if (refusal) throw nonFieldError(refusal);
  return invoice;
}

/** Edit invoice: the date, only while open; the customer only while the invoice holds nothing. */
export async function updateInvoice(
  db: Database,
  tenant: TenantContext,
  id: number,
  input: InvoiceUpdateInput,
): Promise<InvoiceDetail> {
  return db.transaction(async (tx) => {
    const invoice = await lockInvoice(tx, tenant, id, "edit");
    const customerId = input.customer ?? invoice.customerId;
    if (customerId !== invoice.customerId) {
      await assertClientCustomer(tx, tenant.clientId, customerId);
      const [held] = await tx
        .select({ total: count() })
        .from(transactions)
        .where(and(eq(transactions.clientId, tenant.clientId), eq(transactions.invoiceId, id)));
      if (Number(held?.total ?? 0) > 0) throw fieldError("customer", INVOICE_CUSTOMER_FIXED_MESSAGE);
    }
    const [after] = await tx
      .update(invoices)
      .set({ invoiceDate: input.invoice_date, customerId })
      .where(and(eq(invoices.clientId, tenant.clientId), eq(invoices.id, id)))
      .returning();
    await auditInvoice(tx, "invoice.update", invoice, after ?? null);
    return getInvoice(tx, tenant, id);
  });
}

/** Close (open → closed) or reopen (closed → open); a processed invoice stays as it was sent. */
export async function changeInvoiceStatus(
  db: Database,
  tenant: TenantContext,
  id: number,
  action: "close" | "reopen",
): Promise<InvoiceDetail> {
  return db.transaction(async (tx) => {
    const before = await lockInvoice(tx, tenant, id, action);
    const [after] = await tx
      .update(invoices)
      .set({ invoiceStatus: invoiceStatusAfter(action), closedAt: action === "close" ? new Date() : null })
      .where(and(eq(invoices.clientId, tenant.clientId), eq(invoices.id, id)))
      .returning();
    await auditInvoice(tx, `invoice.${action}`, before, after ?? null);
    return getInvoice(tx, tenant, id);
  });
}

/** Takes every entry off the invoice (back to new); the entries themselves are untouched. */
async function detachAll(tx: Executor, tenant: TenantContext, invoiceId: number): Promise<number[]> {
  return detachInvoiceEntries(tx, tenant.clientId, invoiceId);
}

/** Separate Transactions from Invoice: the open invoice stays, empty. */
export async function separateTransactionsFromInvoice(
  db: Database,
  tenant: TenantContext,
  id: number,
): Promise<InvoiceDetail> {
  return db.transaction(async (tx) => {
    const invoice = await lockInvoice(tx, tenant, id, "separate");
    const detached = await detachAll(tx, tenant, id);
    // The invoice's own fields stay; the row names the entries taken off.
    await recordChange(tx, {
      clientId: tenant.clientId,
      action: "invoice.separate_entries",
      recordKind: "invoice",
      recordId: id,
      customerId: invoice.customerId,
      before: { entry_ids: detached.join(", ") },
      after: { entry_ids: "" },
    });
    return getInvoice(tx, tenant, id);
  });
}

/**
 * Deletes an open or closed invoice, detaching its entries first (ledger entries are never
 * deleted). The combined Invoices and Statements table names statements with
 * document=statement; a statement is never deleted from here.
 */
export async function deleteInvoice(
  db: Database,
  tenant: TenantContext,
  id: number,
  document: "invoice" | "statement" | undefined,
): Promise<void> {
  if (document === "statement") {
    await refuseStatement(db, tenant, id);
    return;
  }
  await db.transaction(async (tx) => {
    const [exists] = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.clientId, tenant.clientId), eq(invoices.id, id)))
      .limit(1);
    // Without the document key, an id that only a statement has is still refused by name.
    if (!exists && document === undefined) await refuseStatement(tx, tenant, id);
    const invoice = await lockInvoice(tx, tenant, id, "delete");
    await detachAll(tx, tenant, id);
    await tx.delete(invoices).where(and(eq(invoices.clientId, tenant.clientId), eq(invoices.id, id)));
    await auditInvoice(tx, "invoice.delete", invoice, null);
  });
}

/** 400 with the spec's message when the id is one of the client's statements, else 404. */
async function refuseStatement(db: Executor, tenant: TenantContext, id: number): Promise<never> {
  const [statement] = await db
    .select({ id: statements.id })
    .from(statements)
    .where(and(eq(statements.clientId, tenant.clientId), eq(statements.id, id)))
    .limit(1);
  if (statement) throw nonFieldError(ONLY_INVOICES_DELETABLE_MESSAGE);
  throw notFound();
}
