import { and, eq } from "drizzle-orm";
import {
  MARKED_FOR_DELETION_MESSAGE,
  isEditable,
  isReversible,
  isVoidDeletable,
  isVoidable,
  ledgerAmount,
  multiplyRateByQuantity,
  negateAmount,
  refusesPosting,
  toQuantity,
  toRate,
  type transactionInputSchema,
} from "@cyclebill/domain";
import type { z } from "zod";
import type { Database, Executor } from "../../db/database.js";
import { codes, customers, transactions } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError, nonFieldError } from "../../http/errors.js";
import { attachTransactions } from "../invoices/create-invoice.js";
import { ARCHIVED_CUSTOMER_MESSAGE, applyLedgerEffect, postTransaction } from "./post-transaction.js";
import {
  entryState,
  findTransaction,
  transactionToApi,
  type TransactionOutput,
  type TransactionView,
} from "./transaction-view.js";

type TransactionInput = z.output<typeof transactionInputSchema>;

export const NOT_EDITABLE_MESSAGE = "This transaction can no longer be edited. Void or reverse it instead.";
export const NOT_VOIDABLE_MESSAGE = "This transaction cannot be voided.";
export const NOT_A_DELETABLE_VOID_MESSAGE = "Only a new voiding entry can be deleted.";
export const NOT_REVERSIBLE_MESSAGE = "This transaction cannot be reversed.";
export const NOT_A_REVERSAL_MESSAGE = "This transaction is not a reversal.";

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Staff entry: duplicates of the last 24 hours are refused unless forced. */
export async function createTransaction(
  db: Database,
  tenant: TenantContext,
  input: TransactionInput,
): Promise<TransactionOutput> {
  // Posting and attaching are one database transaction: a refused invoice posts nothing.
  const postedId = await db.transaction(async (tx) => {
    const posted = await postTransaction(tx, tenant, {
      customerId: input.customer,
      codeId: input.code,
      description: input.description,
      rate: input.rate,
      quantity: input.quantity,
      serviceDate: input.serviceDate ?? today(),
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

async function lockedEntry(tx: Executor, tenant: TenantContext, id: number): Promise<TransactionView> {
  // Lock the entry's customer first (the order postings use), then read the entry.
  const entry = await findTransaction(tx, tenant, id);
  await tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, entry.customerId)))
    .for("update");
  return findTransaction(tx, tenant, id);
}

async function customerFlags(tx: Executor, tenant: TenantContext, customerId: number) {
  const [customer] = await tx
    .select({ id: customers.id, deleteFlag: customers.deleteFlag, deleted: customers.deleted })
    .from(customers)
    .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, customerId)))
    .for("update");
  if (!customer) throw fieldError("customer", "Invalid customer - object does not exist.");
  return customer;
}

/** Takes an entry's effect off its customer (the inverse of its posting). */
async function undoEffect(tx: Executor, tenant: TenantContext, entry: TransactionView): Promise<void> {
  const customer = await customerFlags(tx, tenant, entry.customerId);
  await applyLedgerEffect(tx, tenant, {
    customerId: entry.customerId,
    deleteFlag: customer.deleteFlag,
    codeType: entry.codeType,
    ledgerAmount: negateAmount(entry.ledgerAmount),
    amount: negateAmount(entry.amount),
    serviceDate: entry.serviceDate,
    entries: -1,
    amountTotal: negateAmount(entry.amount),
  });
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

/** Rewrites an editable entry: its old effect comes off, its new effect goes on, in one transaction. */
export async function rewriteEntry(
  tx: Executor,
  tenant: TenantContext,
  entry: TransactionView,
  changes: EntryChanges,
): Promise<void> {
  if (!isEditable(entryState(entry))) throw nonFieldError(NOT_EDITABLE_MESSAGE);
  const [code] = await tx
    .select({ id: codes.id, codeType: codes.codeType, code: codes.code })
    .from(codes)
    .where(and(eq(codes.clientId, tenant.clientId), eq(codes.id, changes.code)))
    .limit(1);
  if (!code) throw fieldError("code", "Invalid code - object does not exist.");
  const customer = await customerFlags(tx, tenant, changes.customer);
  if (customer.deleted) throw nonFieldError(ARCHIVED_CUSTOMER_MESSAGE);
  if (refusesPosting(customer.deleteFlag, code.codeType)) throw nonFieldError(MARKED_FOR_DELETION_MESSAGE);
  if (entry.invoiceId !== null && changes.customer !== entry.customerId) {
    throw fieldError("customer", "An entry on an invoice stays with the invoice's customer.");
  }
  await undoEffect(tx, tenant, entry);
  const rate = toRate(changes.rate);
  const quantity = toQuantity(changes.quantity);
  const amount = multiplyRateByQuantity(rate, quantity);
  const signed = ledgerAmount(code.codeType, amount);
  await tx
    .update(transactions)
    .set({
      customerId: changes.customer,
      codeId: code.id,
      description: changes.description,
      rate,
      quantity,
      amount,
      ledgerAmount: signed,
      serviceDate: changes.serviceDate,
      unitOfMeasureId: changes.unitofmeasure,
    })
    .where(and(eq(transactions.clientId, tenant.clientId), eq(transactions.id, entry.id)));
  await applyLedgerEffect(tx, tenant, {
    customerId: changes.customer,
    deleteFlag: customer.deleteFlag,
    codeType: code.codeType,
    ledgerAmount: signed,
    amount,
    serviceDate: changes.serviceDate,
    entries: 1,
    amountTotal: amount,
  });
}

export async function editTransaction(
  db: Database,
  tenant: TenantContext,
  id: number,
  input: TransactionInput,
): Promise<TransactionOutput> {
  await db.transaction(async (tx) => {
    const entry = await lockedEntry(tx, tenant, id);
    await rewriteEntry(tx, tenant, entry, {
      customer: input.customer,
      code: input.code,
      description: input.description,
      rate: input.rate,
      quantity: input.quantity,
      serviceDate: input.serviceDate ?? entry.serviceDate,
      unitofmeasure: input.unitofmeasure,
    });
  });
  return transactionToApi(await findTransaction(db, tenant, id));
}

/** Deletes an editable entry and takes its effect off the balance. */
export async function deleteTransaction(db: Database, tenant: TenantContext, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const entry = await lockedEntry(tx, tenant, id);
    if (!isEditable(entryState(entry))) throw nonFieldError(NOT_EDITABLE_MESSAGE);
    await undoEffect(tx, tenant, entry);
    await tx
      .delete(transactions)
      .where(and(eq(transactions.clientId, tenant.clientId), eq(transactions.id, id)));
  });
}

/** Posts the offsetting entry of `entry` (a void or a reversal): same code and amount, opposite effect. */
async function postOffset(
  tx: Executor,
  tenant: TenantContext,
  entry: TransactionView,
  kind: "void" | "reversal",
): Promise<number> {
  const customer = await customerFlags(tx, tenant, entry.customerId);
  const [offset] = await tx
    .insert(transactions)
    .values({
      clientId: tenant.clientId,
      customerId: entry.customerId,
      codeId: entry.codeId,
      description: `${kind === "void" ? "VOID" : "REVERSAL"}: ${entry.description}`.slice(0, 60),
      quantity: entry.quantity,
      rate: entry.rate,
      amount: entry.amount,
      ledgerAmount: negateAmount(entry.ledgerAmount),
      serviceDate: today(),
      unitOfMeasureId: entry.unitOfMeasureId,
      transactionType: kind === "void" ? "voids_a_transaction" : "user_or_scanner",
      voidsTransactionId: kind === "void" ? entry.id : null,
      reversesTransactionId: kind === "reversal" ? entry.id : null,
      createdByUserId: tenant.user.id,
    })
    .returning({ id: transactions.id });
  if (!offset) throw new Error("offsetting entry not created");
  await applyLedgerEffect(tx, tenant, {
    customerId: entry.customerId,
    deleteFlag: customer.deleteFlag,
    codeType: entry.codeType,
    ledgerAmount: negateAmount(entry.ledgerAmount),
    amount: negateAmount(entry.amount),
    serviceDate: today(),
    // The offsetting entry carries the same (unsigned) amount as the entry it offsets.
    entries: 1,
    amountTotal: entry.amount,
  });
  return offset.id;
}

/** Voids an attached entry: a voiding entry nets it to zero and the entry is marked voided. */
export async function voidTransaction(
  db: Database,
  tenant: TenantContext,
  id: number,
): Promise<TransactionOutput> {
  const voidId = await db.transaction(async (tx) => {
    const entry = await lockedEntry(tx, tenant, id);
    if (!isVoidable(entryState(entry))) throw nonFieldError(NOT_VOIDABLE_MESSAGE);
    const offsetId = await postOffset(tx, tenant, entry, "void");
    await tx
      .update(transactions)
      .set({ voided: true })
      .where(and(eq(transactions.clientId, tenant.clientId), eq(transactions.id, id)));
    return offsetId;
  });
  return transactionToApi(await findTransaction(db, tenant, voidId));
}

/** Deletes a new voiding entry: the voided entry counts again. */
export async function deleteVoid(db: Database, tenant: TenantContext, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const entry = await lockedEntry(tx, tenant, id);
    if (!isVoidDeletable(entryState(entry)) || entry.voidsTransactionId === null)
      throw nonFieldError(NOT_A_DELETABLE_VOID_MESSAGE);
    await undoEffect(tx, tenant, entry);
    await tx
      .delete(transactions)
      .where(and(eq(transactions.clientId, tenant.clientId), eq(transactions.id, id)));
    await tx
      .update(transactions)
      .set({ voided: false })
      .where(and(eq(transactions.clientId, tenant.clientId), eq(transactions.id, entry.voidsTransactionId)));
  });
}

/** Reverses an entry that can no longer be edited (billed, or on a closed invoice). */
export async function reverseTransaction(
  db: Database,
  tenant: TenantContext,
  id: number,
): Promise<TransactionOutput> {
  const reversalId = await db.transaction(async (tx) => {
    const entry = await lockedEntry(tx, tenant, id);
    if (!isReversible(entryState(entry))) throw nonFieldError(NOT_REVERSIBLE_MESSAGE);
    return postOffset(tx, tenant, entry, "reversal");
  });
  return transactionToApi(await findTransaction(db, tenant, reversalId));
}

/** Deletes a reversal not yet billed: the reversed entry counts again. */
export async function deleteReversal(db: Database, tenant: TenantContext, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const entry = await lockedEntry(tx, tenant, id);
    if (entry.reversesTransactionId === null) throw nonFieldError(NOT_A_REVERSAL_MESSAGE);
    if (entry.statementId !== null) throw nonFieldError("A billed reversal cannot be deleted.");
    await undoEffect(tx, tenant, entry);
    await tx
      .delete(transactions)
      .where(and(eq(transactions.clientId, tenant.clientId), eq(transactions.id, id)));
  });
}
