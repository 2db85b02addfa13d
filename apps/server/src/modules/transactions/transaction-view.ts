import { and, Column, eq, is, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  entryActions,
  isEditable,
  isReversible,
  isVoidable,
  isVoidDeletable,
  refusesPosting,
  type EntryActionState,
  type TransactionRecord,
} from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { hasPreparedRunner, inlineCount, preparedStatementArrays } from "../../db/prepared-rows.js";
import { clients, codes, customers, invoices, transactions, unitsOfMeasure } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { notFound } from "../../http/errors.js";

const reversal = alias(transactions, "reversal");

/** One ledger entry with what the table shows beside it (customer, code, invoice, unit). */
export const transactionSelection = {
  id: transactions.id,
  clientId: transactions.clientId,
  customerId: transactions.customerId,
  customerName: customers.customerName,
  customerNo: customers.customerNo,
  codeId: transactions.codeId,
  codeNumber: codes.code,
  codeType: codes.codeType,
  description: transactions.description,
  quantity: transactions.quantity,
  rate: transactions.rate,
  amount: transactions.amount,
  ledgerAmount: transactions.ledgerAmount,
  serviceDate: transactions.serviceDate,
  createdAt: transactions.createdAt,
  unitOfMeasureId: transactions.unitOfMeasureId,
  unitName: unitsOfMeasure.name,
  transactionStatus: transactions.transactionStatus,
  transactionType: transactions.transactionType,
  invoiceId: transactions.invoiceId,
  invoiceNum: invoices.invoiceNum,
  invoiceStatus: invoices.invoiceStatus,
  statementId: transactions.statementId,
  voidsTransactionId: transactions.voidsTransactionId,
  reversesTransactionId: transactions.reversesTransactionId,
  // The column itself, not raw SQL, so its number mode decodes it: node-pg reads bigint as a string.
  reversedById: reversal.id,
  voided: transactions.voided,
  storedAmountFlag: transactions.storedAmountFlag,
  gatewayTransId: transactions.gatewayTransId,
  // What the server checks before changing the entry: its customer takes business, its date is open.
  customerArchived: customers.deleted,
  customerDeleteFlag: customers.deleteFlag,
  closedThrough: sql<
    string | null
  >`(select ${clients.booksClosedThrough}::text from ${clients} where ${clients.id} = ${transactions.clientId})`,
};

export function selectTransactions(db: Executor, where: SQL | undefined) {
  return db
    .select(transactionSelection)
    .from(transactions)
    .innerJoin(
      customers,
      and(eq(customers.clientId, transactions.clientId), eq(customers.id, transactions.customerId)),
    )
    .innerJoin(codes, and(eq(codes.clientId, transactions.clientId), eq(codes.id, transactions.codeId)))
    .leftJoin(
      invoices,
      and(eq(invoices.clientId, transactions.clientId), eq(invoices.id, transactions.invoiceId)),
    )
    .leftJoin(unitsOfMeasure, eq(unitsOfMeasure.id, transactions.unitOfMeasureId))
    .leftJoin(
      reversal,
      and(eq(reversal.clientId, transactions.clientId), eq(reversal.reversesTransactionId, transactions.id)),
    )
    .where(where);
}

export type TransactionView = Awaited<ReturnType<typeof selectTransactions>>[number];

export function entryState(view: TransactionView): EntryActionState {
  return {
    codeType: view.codeType,
    serviceDate: view.serviceDate,
    closedThrough: view.closedThrough,
    refundedThroughGateway:
      Boolean(view.gatewayTransId) &&
      (view.voidsTransactionId !== null || view.reversesTransactionId !== null),
    customerRefusal: view.customerArchived
      ? "archived"
      : refusesPosting(view.customerDeleteFlag, "charge")
        ? "marked_for_deletion"
        : null,
    transactionStatus: view.transactionStatus,
    transactionType: view.transactionType,
    codeNumber: view.codeNumber,
    voided: view.voided,
    isReversal: view.reversesTransactionId !== null,
    isReversed: view.reversedById !== null,
    invoiceStatus: view.invoiceStatus,
    onStatement: view.statementId !== null,
  };
}

/** The entry as the API names it: the domain's transaction record. */
export function transactionToApi(view: TransactionView): TransactionRecord {
  const state = entryState(view);
  return {
    id: view.id,
    client: view.clientId,
    customer: view.customerId,
    customer_name: view.customerName,
    customer_no: view.customerNo,
    code: view.codeId,
    displayCode: view.codeNumber,
    code_type: view.codeType,
    code_type_id: view.codeNumber,
    description: view.description,
    quantity: view.quantity,
    rate: view.rate,
    amount: view.amount,
    ledger_amount: view.ledgerAmount,
    serviceDate: view.serviceDate,
    created: view.createdAt.toISOString(),
    unitofmeasure: view.unitOfMeasureId,
    uom: view.unitName,
    // Billed on a statement is attached too: to the statement, as an invoiced entry is to its invoice.
    transaction_status: view.statementId !== null ? "attached" : view.transactionStatus,
    transaction_type: view.transactionType,
    invoice: view.invoiceId,
    invoice_num: view.invoiceNum,
    invoice_status: view.invoiceStatus,
    statement: view.statementId,
    voided: view.voided,
    voids_transaction: view.voidsTransactionId,
    reverses_transaction: view.reversesTransactionId,
    reversed_by: view.reversedById,
    stored_amount_flag: view.storedAmountFlag,
    gateway_trans_id: view.gatewayTransId,
    editable: isEditable(state),
    voidable: isVoidable(state),
    void_deletable: isVoidDeletable(state),
    reversible: isReversible(state),
    actions: entryActions(state),
  };
}
export type TransactionOutput = TransactionRecord;

function selectOne(db: Executor, clientId: number | SQLWrapper, id: number | SQLWrapper) {
  return selectTransactions(db, and(eq(transactions.clientId, clientId), eq(transactions.id, id))).limit(
    inlineCount(1),
  );
}

const selectionKeys = Object.keys(transactionSelection);
const selectionDecoders = Object.values(transactionSelection).map((field) =>
  is(field, Column) ? (value: unknown) => field.mapFromDriverValue(value) : (value: unknown) => value,
);

/** A row of selectTransactions read as an array of its columns (preparedStatementArrays), mapped as drizzle maps it. */
export function viewFromColumns(columns: unknown[]): TransactionView {
  const view: Record<string, unknown> = {};
  for (let index = 0; index < selectionKeys.length; index += 1) {
    const value = columns[index];
    view[selectionKeys[index]!] = value === null ? null : selectionDecoders[index]!(value);
  }
  return view as TransactionView;
}

export async function findTransaction(
  db: Executor,
  tenant: TenantContext,
  id: number,
): Promise<TransactionView> {
  // On the handle, a kept statement (planning the join cost more than running it); an open
  // transaction runs it as it is.
  const [row] = hasPreparedRunner(db)
    ? (
        await preparedStatementArrays(
          db,
          "transaction_find",
          () => selectOne(db, sql.placeholder("clientId"), sql.placeholder("id")).getSQL(),
          { clientId: tenant.clientId, id },
        )
      ).map(viewFromColumns)
    : await selectOne(db, tenant.clientId, id);
  if (!row) throw notFound();
  return row;
}
