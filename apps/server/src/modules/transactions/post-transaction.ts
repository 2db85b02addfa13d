import { and, eq, gt, sql } from "drizzle-orm";
import {
  DUPLICATE_TRANSACTION_MESSAGE,
  DUPLICATE_WINDOW_HOURS,
  type CodeType,
  MARKED_FOR_DELETION_MESSAGE,
  isZeroAmount,
  ledgerAmount,
  monthToDateBucket,
  multiplyRateByQuantity,
  refusesPosting,
  toQuantity,
  toRate,
} from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import type { transactionTypes } from "../../db/tables.js";
import { codes, customers, storedAmounts, transactions } from "../../db/tables.js";
import { fieldError, nonFieldError } from "../../http/errors.js";

export const ARCHIVED_CUSTOMER_MESSAGE =
  "This customer is archived. Unarchive it before entering transactions.";

export type PostingInput = {
  customerId: number;
  codeId: number;
  description: string;
  rate: string;
  quantity?: string;
  /** YYYY-MM-DD; today when absent. */
  serviceDate?: string;
  unitOfMeasureId?: number | null;
  transactionType?: (typeof transactionTypes)[number];
  createdByUserId?: number | null;
  recurringChargeId?: number | null;
  productionRunId?: number | null;
  /** Entry time; defaults to now. Demo data and imports back-date it. */
  createdAt?: Date;
  /** Staff entries: refuse one equal to an entry of the last 24 hours (same customer, code, amount, date). */
  refuseDuplicates?: boolean;
};

export type PostedTransaction = typeof transactions.$inferSelect;

const mtdColumn = {
  charges: customers.mtdCharges,
  payments: customers.mtdPayments,
  credit_adjustments: customers.mtdCrAdj,
  debit_adjustments: customers.mtdDbAdj,
} as const;

/**
 * Posts one ledger entry and moves the customer's balance and month-to-date figures in the
 * same database transaction, so the balance always equals the sum of the ledger.
 */
export async function postTransaction(
  db: Executor,
  tenant: { clientId: number },
  input: PostingInput,
): Promise<PostedTransaction> {
  return db.transaction(async (tx) => {
    const [code] = await tx
      .select({ id: codes.id, codeType: codes.codeType })
      .from(codes)
      .where(and(eq(codes.clientId, tenant.clientId), eq(codes.id, input.codeId)))
      .limit(1);
    if (!code) throw fieldError("code", "Invalid code - object does not exist.");
    // Lock the customer row: concurrent postings to one customer apply one after the other.
    const [customer] = await tx
      .select({ id: customers.id, deleteFlag: customers.deleteFlag, deleted: customers.deleted })
      .from(customers)
      .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, input.customerId)))
      .for("update")
      .limit(1);
    if (!customer) throw fieldError("customer", "Invalid customer - object does not exist.");
    if (customer.deleted) throw nonFieldError(ARCHIVED_CUSTOMER_MESSAGE);
    if (refusesPosting(customer.deleteFlag, code.codeType)) throw nonFieldError(MARKED_FOR_DELETION_MESSAGE);

    const rate = toRate(input.rate);
    const quantity = toQuantity(input.quantity ?? "1");
    const amount = multiplyRateByQuantity(rate, quantity);
    const signedAmount = ledgerAmount(code.codeType, amount);
    const serviceDate = input.serviceDate ?? new Date().toISOString().slice(0, 10);

    if (input.refuseDuplicates) {
      const [duplicate] = await tx
        .select({ id: transactions.id })
        .from(transactions)
        .where(
          and(
            eq(transactions.clientId, tenant.clientId),
            eq(transactions.customerId, customer.id),
            eq(transactions.codeId, code.id),
            eq(transactions.amount, amount),
            eq(transactions.serviceDate, serviceDate),
            eq(transactions.voided, false),
            gt(transactions.createdAt, sql`now() - make_interval(hours => ${DUPLICATE_WINDOW_HOURS})`),
          ),
        )
        .limit(1);
      if (duplicate) throw nonFieldError(DUPLICATE_TRANSACTION_MESSAGE);
    }
    // An entry whose rate differs from the customer's stored amount for the code is flagged for review.
    const stored = await tx
      .select({ rate: storedAmounts.rate })
      .from(storedAmounts)
      .where(
        and(
          eq(storedAmounts.clientId, tenant.clientId),
          eq(storedAmounts.customerId, customer.id),
          eq(storedAmounts.codeId, code.id),
        ),
      );
    const storedAmountFlag = stored.length === 0 || stored.some((row) => toRate(row.rate) === rate);

    const [posted] = await tx
      .insert(transactions)
      .values({
        clientId: tenant.clientId,
        customerId: customer.id,
        codeId: code.id,
        description: input.description,
        quantity,
        rate,
        amount,
        ledgerAmount: signedAmount,
        serviceDate,
        unitOfMeasureId: input.unitOfMeasureId ?? 1,
        transactionType: input.transactionType ?? "user_or_scanner",
        storedAmountFlag,
        createdByUserId: input.createdByUserId ?? null,
        recurringChargeId: input.recurringChargeId ?? null,
        productionRunId: input.productionRunId ?? null,
        ...(input.createdAt ? { createdAt: input.createdAt } : {}),
      })
      .returning();

    await applyLedgerEffect(tx, tenant, {
      customerId: customer.id,
      deleteFlag: customer.deleteFlag,
      codeType: code.codeType,
      ledgerAmount: signedAmount,
      amount,
      serviceDate,
      entries: 1,
      amountTotal: amount,
    });
    return posted as PostedTransaction;
  });
}

function mtdColumnKey(
  bucket: keyof typeof mtdColumn,
): "mtdCharges" | "mtdPayments" | "mtdCrAdj" | "mtdDbAdj" {
  switch (bucket) {
    case "charges":
      return "mtdCharges";
    case "payments":
      return "mtdPayments";
    case "credit_adjustments":
      return "mtdCrAdj";
    case "debit_adjustments":
      return "mtdDbAdj";
  }
}

export type LedgerEffect = {
  customerId: number;
  deleteFlag: string | null;
  codeType: CodeType;
  /** Signed change of the balance. */
  ledgerAmount: string;
  /** Signed change of the month-to-date figure of the code type (negative when taking an entry back). */
  amount: string;
  serviceDate: string;
  /** Entries added (1) or taken away (-1): the customer's ledger tally. */
  entries: 1 | -1;
  /** Change of the sum of the entries' (unsigned) amounts. */
  amountTotal: string;
};

/**
 * Moves a customer's balance and month-to-date figure by one posting (or its undoing), in the
 * caller's database transaction. A customer marked for deletion is archived when it reaches zero.
 */
export async function applyLedgerEffect(
  tx: Executor,
  tenant: { clientId: number },
  effect: LedgerEffect,
): Promise<void> {
  const bucket = monthToDateBucket(effect.codeType);
  const updates: Record<string, unknown> = {
    totalBalance: sql`${customers.totalBalance} + ${effect.ledgerAmount}::numeric`,
    ledgerEntries: sql`${customers.ledgerEntries} + ${effect.entries}::int`,
    ledgerAmountTotal: sql`${customers.ledgerAmountTotal} + ${effect.amountTotal}::numeric`,
    updatedAt: sql`now()`,
  };
  if (bucket) updates[mtdColumnKey(bucket)] = sql`${mtdColumn[bucket]} + ${effect.amount}::numeric`;
  if (effect.codeType === "payment" && !effect.amount.startsWith("-")) {
    updates.lastPayDate = sql`greatest(${customers.lastPayDate}, ${effect.serviceDate}::date)`;
  }
  const [after] = await tx
    .update(customers)
    .set(updates)
    .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, effect.customerId)))
    .returning({ totalBalance: customers.totalBalance });
  if (effect.deleteFlag && after && isZeroAmount(after.totalBalance)) {
    await tx
      .update(customers)
      .set({ deleted: true, deletedAt: new Date() })
      .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, effect.customerId)));
  }
}
