import { and, eq, inArray } from "drizzle-orm";
import {
  entryActionRefusal,
  NOT_A_DELETABLE_VOID_MESSAGE,
  toQuantity,
  toRate,
  type EntryAction,
  type transactionInputSchema,
} from "@cyclebill/domain";
import type { z } from "zod";
import { businessToday } from "../../clock.js";
import type { Database, Executor } from "../../db/database.js";
import { invoices, transactions } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError, nonFieldError, notFound } from "../../http/errors.js";
import { attachTransactions } from "../invoices/create-invoice.js";
import { changeEntries, type EntryRewrite } from "../ledger/change-entries.js";
import { setEntryVoided } from "../ledger/entry-links.js";
import { lockCustomers } from "../ledger/lock-customers.js";
import { moneyTransaction } from "../ledger/money-transaction.js";
import { postEntries } from "../ledger/post-entries.js";
import { removeEntries } from "../ledger/remove-entries.js";
import { offsetEntry } from "./offset-entry.js";
import { postTransaction } from "./post-transaction.js";
import {
  entryState,
  findTransaction,
  selectTransactions,
  transactionToApi,
  type TransactionOutput,
  type TransactionView,
} from "./transaction-view.js";

type TransactionInput = z.output<typeof transactionInputSchema>;

export { NOT_A_DELETABLE_VOID_MESSAGE };
export {
  NOT_A_REVERSAL_MESSAGE,
  NOT_EDITABLE_MESSAGE,
  NOT_REVERSIBLE_MESSAGE,
  NOT_VOIDABLE_MESSAGE,
  REFUNDED_OFFSET_MESSAGE,
} from "@cyclebill/domain";
import { clientCode } from "../tenancy/tenant-refs.js";

/** Refuses as the entry's offered actions say: the same rule the records' `actions` come from. */
export function assertEntryAction(entry: TransactionView, action: EntryAction): void {
  const refusal = entryActionRefusal(entryState(entry), action);
  if (!refusal) return;
  throw refusal.field ? fieldError(refusal.field, refusal.message) : nonFieldError(refusal.message);
}

/** Staff entry: duplicates of the last 24 hours are refused unless forced. */
export async function createTransaction(
  db: Database,
  tenant: TenantContext,
  input: TransactionInput,
): Promise<TransactionOutput> {
  // Posting and attaching are one database transaction: a refused invoice posts nothing.
  const postedId = await moneyTransaction(db, async (tx) => {
    const posted = await postTransaction(tx, tenant, {
      customerId: input.customer,
      codeId: input.code,
      description: input.description,
      rate: input.rate,
      quantity: input.quantity,
      serviceDate: input.serviceDate ?? businessToday(),
      // Left to default to today: on a run's day it takes the first open day.
      datedToday: input.serviceDate === undefined,
      unitOfMeasureId: input.unitofmeasure,
      transactionType: input.transaction_type,
      createdByUserId: tenant.user.id,
      refuseDuplicates: !input.force,
    });
    if (input.invoice !== undefined) await attachTransactions(tx, tenant, input.invoice, [posted.id]);
    return posted.id;
  });
  return transactionToApi(await findTransaction(db, tenant, postedId));
}

/**
 * Locks what changing these entries touches, in the one order money uses — their customers (and
 * any customer they move to) by id, then their invoices by id — and reads them again under the
 * locks, so a close or a void that got there first is seen.
 */
export async function lockedEntries(
  tx: Executor,
  tenant: TenantContext,
  ids: readonly number[],
  movingTo: readonly number[] = [],
): Promise<TransactionView[]> {
  const scope = and(eq(transactions.clientId, tenant.clientId), inArray(transactions.id, [...ids]));
  const seen = await selectTransactions(tx, scope);
  if (seen.length !== new Set(ids).size) throw notFound();
  await lockCustomers(tx, tenant.clientId, [...seen.map((entry) => entry.customerId), ...movingTo]);
  const invoiceIds = [
    ...new Set(seen.flatMap((entry) => (entry.invoiceId === null ? [] : [entry.invoiceId]))),
  ];
  if (invoiceIds.length > 0) {
    await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.clientId, tenant.clientId), inArray(invoices.id, invoiceIds)))
      .orderBy(invoices.id)
      .for("update");
  }
  const current = await selectTransactions(tx, scope);
  return ids.map((id) => {
    const entry = current.find((row) => row.id === id);
    if (!entry) throw notFound();
    return entry;
  });
}

async function lockedEntry(tx: Executor, tenant: TenantContext, id: number): Promise<TransactionView> {
  const [entry] = await lockedEntries(tx, tenant, [id]);
  return entry as TransactionView;
}

export type EntryChanges = {
  customer: number;
  code: number;
  description: string;
  rate: string;
  quantity: string;
  serviceDate: string;
  unitofmeasure: number;
};

export const ENTRY_STAYS_WITH_INVOICE_MESSAGE = "An entry on an invoice stays with the invoice's customer.";

/** What an editable entry becomes; the ledger writer then moves the figures (and checks the customer). */
export async function planRewrite(
  tx: Executor,
  tenant: TenantContext,
  entry: TransactionView,
  changes: EntryChanges,
): Promise<EntryRewrite> {
  assertEntryAction(entry, "edit");
  const code = await clientCode(tx, tenant.clientId, changes.code);
  if (entry.invoiceId !== null && changes.customer !== entry.customerId) {
    throw fieldError("customer", ENTRY_STAYS_WITH_INVOICE_MESSAGE);
  }
  return {
    id: entry.id,
    customerId: changes.customer,
    codeId: code.id,
    codeType: code.codeType,
    description: changes.description,
    rate: toRate(changes.rate),
    quantity: toQuantity(changes.quantity),
    serviceDate: changes.serviceDate,
    unitOfMeasureId: changes.unitofmeasure,
  };
}

export async function editTransaction(
  db: Database,
  tenant: TenantContext,
  id: number,
  input: TransactionInput,
): Promise<TransactionOutput> {
  await moneyTransaction(db, async (tx) => {
    const [entry] = (await lockedEntries(tx, tenant, [id], [input.customer])) as [TransactionView];
    const rewrite = await planRewrite(tx, tenant, entry, {
      customer: input.customer,
      code: input.code,
      description: input.description,
      rate: input.rate,
      quantity: input.quantity,
      serviceDate: input.serviceDate ?? entry.serviceDate,
      unitofmeasure: input.unitofmeasure,
    });
    await changeEntries(tx, tenant, [rewrite]);
  });
  return transactionToApi(await findTransaction(db, tenant, id));
}

/** Deletes an editable entry and takes its effect off the balance. */
export async function deleteTransaction(db: Database, tenant: TenantContext, id: number): Promise<void> {
  await moneyTransaction(db, async (tx) => {
    const entry = await lockedEntry(tx, tenant, id);
    assertEntryAction(entry, "delete");
    await removeEntries(tx, tenant, [id]);
  });
}

/** Posts the offsetting entry of `entry` (a void or a reversal): same code and amount, opposite effect. */
async function postOffset(
  tx: Executor,
  tenant: TenantContext,
  entry: TransactionView,
  kind: "void" | "reversal",
): Promise<number> {
  const {
    ids: [offsetId],
  } = await postEntries(tx, tenant, [offsetEntry(entry, kind, { createdByUserId: tenant.user.id })]);
  if (!offsetId) throw new Error("offsetting entry not created");
  return offsetId;
}

/** Voids an attached entry: a voiding entry nets it to zero and the entry is marked voided. */
export async function voidTransaction(
  db: Database,
  tenant: TenantContext,
  id: number,
): Promise<TransactionOutput> {
  const voidId = await moneyTransaction(db, async (tx) => {
    const entry = await lockedEntry(tx, tenant, id);
    assertEntryAction(entry, "void");
    const offsetId = await postOffset(tx, tenant, entry, "void");
    await setEntryVoided(tx, tenant.clientId, id, true);
    return offsetId;
  });
  return transactionToApi(await findTransaction(db, tenant, voidId));
}

/** Deletes a new voiding entry: the voided entry counts again. */
export async function deleteVoid(db: Database, tenant: TenantContext, id: number): Promise<void> {
  await moneyTransaction(db, async (tx) => {
    const entry = await lockedEntry(tx, tenant, id);
    assertEntryAction(entry, "delete_void");
    if (entry.voidsTransactionId === null) throw nonFieldError(NOT_A_DELETABLE_VOID_MESSAGE);
    await removeEntries(tx, tenant, [id]);
    await setEntryVoided(tx, tenant.clientId, entry.voidsTransactionId, false);
  });
}

/** Reverses an entry that can no longer be edited (billed, or on a closed invoice). */
export async function reverseTransaction(
  db: Database,
  tenant: TenantContext,
  id: number,
): Promise<TransactionOutput> {
  const reversalId = await moneyTransaction(db, async (tx) => {
    const entry = await lockedEntry(tx, tenant, id);
    assertEntryAction(entry, "reverse");
    return postOffset(tx, tenant, entry, "reversal");
  });
  return transactionToApi(await findTransaction(db, tenant, reversalId));
}

/** Deletes a reversal not yet billed: the reversed entry counts again. */
export async function deleteReversal(db: Database, tenant: TenantContext, id: number): Promise<void> {
  await moneyTransaction(db, async (tx) => {
    const entry = await lockedEntry(tx, tenant, id);
    assertEntryAction(entry, "delete_reversal");
    await removeEntries(tx, tenant, [id]);
  });
}
