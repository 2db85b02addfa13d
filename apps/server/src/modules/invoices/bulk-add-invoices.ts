import { and, asc, eq, inArray, isNull, type SQL } from "drizzle-orm";
import type { BulkAddInvoicesInput, Page } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { customers, transactions } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { badRequest } from "../../http/errors.js";
import { lockCustomers } from "../ledger/lock-customers.js";
import { attachTransactions, createInvoice } from "./create-invoice.js";
import { invoiceOutputs, type InvoiceOutput } from "./invoice-output.js";
import { today } from "./manage-invoices.js";

/**
 * One open invoice per customer holding that customer's new entries that are on no invoice,
 * not voided and not yet billed on a statement; customers with none get no invoice. All the
 * invoices are made in one database transaction, or none.
 */
export async function bulkAddInvoices(
  db: Database,
  tenant: TenantContext,
  input: BulkAddInvoicesInput,
): Promise<Page<InvoiceOutput>> {
  const invoiceDate = input.invoice_date ?? today();
  const requested = input.customer_ids ? [...new Set(input.customer_ids)] : undefined;
  const ids = await db.transaction(async (tx) => {
    if (requested && requested.length > 0) {
      const found = await tx
        .select({ id: customers.id })
        .from(customers)
        .where(and(eq(customers.clientId, tenant.clientId), inArray(customers.id, requested)));
      const known = new Set(found.map((row) => row.id));
      const missing = requested.filter((id) => !known.has(id));
      if (missing.length > 0) {
        throw badRequest({
          customer_ids: missing.map((id) => `Invalid pk "${id}" - object does not exist.`),
        });
      }
    }
    if (requested && requested.length === 0) return [];
    const conditions: SQL[] = [
      eq(transactions.clientId, tenant.clientId),
      eq(transactions.transactionStatus, "new"),
      isNull(transactions.invoiceId),
      isNull(transactions.statementId),
      eq(transactions.voided, false),
    ];
    if (requested) conditions.push(inArray(transactions.customerId, requested));
    // Customers first, in id order (the order postings and createInvoice use), then their entries.
    const candidates = await tx
      .selectDistinct({ customerId: transactions.customerId })
      .from(transactions)
      .where(and(...conditions));
    const customerIds = candidates.map((row) => row.customerId);
    if (customerIds.length === 0) return [];
    await lockCustomers(tx, tenant.clientId, customerIds);
    conditions.push(inArray(transactions.customerId, customerIds));
    // Locked, so a concurrent attach cannot put one of them on another invoice meanwhile.
    const entries = await tx
      .select({ id: transactions.id, customerId: transactions.customerId })
      .from(transactions)
      .where(and(...conditions))
      .orderBy(asc(transactions.customerId), asc(transactions.id))
      .for("update");
    const byCustomer = new Map<number, number[]>();
    for (const entry of entries) {
      const list = byCustomer.get(entry.customerId) ?? [];
      list.push(entry.id);
      byCustomer.set(entry.customerId, list);
    }
    const created: number[] = [];
    for (const [customerId, transactionIds] of byCustomer) {
      const invoice = await createInvoice(tx, tenant, {
        customerId,
        invoiceDate,
        createdByUserId: tenant.user.id,
      });
      await attachTransactions(tx, tenant, invoice.id, transactionIds);
      created.push(invoice.id);
    }
    return created;
  });
  const results = await invoiceOutputs(db, tenant, ids);
  return { count: results.length, results };
}
