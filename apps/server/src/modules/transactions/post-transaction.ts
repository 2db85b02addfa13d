import { and, eq } from "drizzle-orm";
import { DUPLICATE_TRANSACTION_MESSAGE, multiplyRateByQuantity, toQuantity, toRate } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import type { transactionTypes } from "../../db/tables.js";
import { storedAmounts, transactions } from "../../db/tables.js";
import { businessToday } from "../../clock.js";
import { nonFieldError } from "../../http/errors.js";
import { lockCustomers } from "../ledger/lock-customers.js";
import { postEntries } from "../ledger/post-entries.js";
import { assertPostable } from "../ledger/posting-rules.js";
import { clientCode } from "../tenancy/tenant-refs.js";
import { recentDuplicates } from "./recent-duplicates.js";

export type PostingInput = {
  customerId: number;
  codeId: number;
  description: string;
  rate: string;
  quantity?: string;
  /** YYYY-MM-DD; today when absent. */
  serviceDate?: string;
  /** The date is the clock's, not the user's: in a closed period it moves to the first open day. */
  datedToday?: boolean;
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

/**
 * Posts one ledger entry through the ledger writer (a batch of one), after the checks a staff
 * entry gets: the customer may take it, and it is no duplicate of the last 24 hours.
 */
export async function postTransaction(
  db: Executor,
  tenant: { clientId: number },
  input: PostingInput,
): Promise<PostedTransaction> {
  return db.transaction(async (tx) => {
    const code = await clientCode(tx, tenant.clientId, input.codeId);
    // Lock the customer first: concurrent postings to one customer apply one after the other,
    // and the duplicate check below sees every earlier one.
    const locked = await lockCustomers(tx, tenant.clientId, [input.customerId]);
    assertPostable(locked.get(input.customerId), code.codeType);

    const rate = toRate(input.rate);
    const quantity = toQuantity(input.quantity ?? "1");
    const amount = multiplyRateByQuantity(rate, quantity);
    const serviceDate = input.serviceDate ?? businessToday();

    if (input.refuseDuplicates) {
      const twins = await recentDuplicates(tx, tenant.clientId, { codeId: code.id, serviceDate }, [
        { customerId: input.customerId, amount },
      ]);
      if (twins.size > 0) throw nonFieldError(DUPLICATE_TRANSACTION_MESSAGE);
    }
    // An entry whose rate differs from the customer's stored amount for the code is flagged for review.
    const stored = await tx
      .select({ rate: storedAmounts.rate })
      .from(storedAmounts)
      .where(
        and(
          eq(storedAmounts.clientId, tenant.clientId),
          eq(storedAmounts.customerId, input.customerId),
          eq(storedAmounts.codeId, code.id),
        ),
      );
    const storedAmountFlag = stored.length === 0 || stored.some((row) => toRate(row.rate) === rate);

    const {
      ids: [postedId],
    } = await postEntries(tx, tenant, [
      {
        customerId: input.customerId,
        codeId: code.id,
        codeType: code.codeType,
        description: input.description,
        rate,
        quantity,
        serviceDate,
        datedToday: input.datedToday ?? input.serviceDate === undefined,
        unitOfMeasureId: input.unitOfMeasureId ?? 1,
        transactionType: input.transactionType ?? "user_or_scanner",
        storedAmountFlag,
        createdByUserId: input.createdByUserId ?? null,
        recurringChargeId: input.recurringChargeId ?? null,
        productionRunId: input.productionRunId ?? null,
        createdAt: input.createdAt,
      },
    ]);
    const [posted] = await tx
      .select()
      .from(transactions)
      .where(and(eq(transactions.clientId, tenant.clientId), eq(transactions.id, postedId as number)));
    if (!posted) throw new Error("posted entry not found");
    return posted;
  });
}
