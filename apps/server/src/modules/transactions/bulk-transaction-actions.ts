import { and, eq, inArray } from "drizzle-orm";
import { ONE_CUSTOMER_MESSAGE, type transactionMassUpdateSchema } from "@cyclebill/domain";
import type { z } from "zod";
import { businessToday } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { transactions } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { nonFieldError, notFound } from "../../http/errors.js";
import { attachTransactions, createInvoice } from "../invoices/create-invoice.js";
import { changeEntries, type EntryRewrite } from "../ledger/change-entries.js";
import { moneyTransaction } from "../ledger/money-transaction.js";
import { lockedEntries, planRewrite } from "./change-transaction.js";
import { selectTransactions, transactionToApi, type TransactionOutput } from "./transaction-view.js";

/** Mass update: the given fields change on every selected entry, all or nothing. */
export async function massUpdateTransactions(
  db: Database,
  tenant: TenantContext,
  input: z.output<typeof transactionMassUpdateSchema>,
): Promise<{ count: number; results: TransactionOutput[] }> {
  const ids = [...new Set(input.ids)];
  const { changes } = input;
  await moneyTransaction(db, async (tx) => {
    // Every customer involved (the entries' and the one they move to) is locked up front, in id order.
    const entries = await lockedEntries(
      tx,
      tenant,
      ids,
      changes.customer === undefined ? [] : [changes.customer],
    );
    const rewrites: EntryRewrite[] = [];
    for (const entry of entries) {
      rewrites.push(
        await planRewrite(tx, tenant, entry, {
          customer: changes.customer ?? entry.customerId,
          code: changes.code ?? entry.codeId,
          description: changes.description ?? entry.description,
          rate: changes.rate ?? entry.rate,
          quantity: changes.quantity ?? entry.quantity,
          serviceDate: changes.serviceDate ?? entry.serviceDate,
          unitofmeasure: changes.uom ?? entry.unitOfMeasureId ?? 1,
        }),
      );
    }
    await changeEntries(tx, tenant, rewrites);
  });
  const rows = await selectTransactions(
    db,
    and(eq(transactions.clientId, tenant.clientId), inArray(transactions.id, ids)),
  );
  return { count: rows.length, results: rows.map(transactionToApi) };
}

export { ONE_CUSTOMER_MESSAGE };

/** Make Invoice from Selected: a new open invoice holding the selected entries of one customer. */
export async function makeInvoiceFromTransactions(
  db: Database,
  tenant: TenantContext,
  input: { ids: number[]; invoice_date?: string },
): Promise<{ id: number; invoice_num: number; transaction_count: number }> {
  const ids = [...new Set(input.ids)];
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: transactions.id, customerId: transactions.customerId })
      .from(transactions)
      .where(and(eq(transactions.clientId, tenant.clientId), inArray(transactions.id, ids)));
    if (rows.length !== ids.length) throw notFound();
    const customerIds = new Set(rows.map((row) => row.customerId));
    if (customerIds.size !== 1) throw nonFieldError(ONE_CUSTOMER_MESSAGE);
    const invoice = await createInvoice(tx, tenant, {
      customerId: [...customerIds][0] as number,
      invoiceDate: input.invoice_date ?? businessToday(),
      createdByUserId: tenant.user.id,
    });
    await attachTransactions(tx, tenant, invoice.id, ids);
    return { id: invoice.id, invoice_num: invoice.invoiceNum, transaction_count: ids.length };
  });
}
