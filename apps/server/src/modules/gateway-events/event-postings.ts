import { and, eq, sql } from "drizzle-orm";
import { isReversible } from "@cyclebill/domain";
import { z } from "zod";
import { businessToday } from "../../clock.js";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { transactions } from "../../db/tables.js";
import { postEntries } from "../ledger/post-entries.js";
import { ensurePaymentCode } from "../payments/payment-codes.js";
import { ensureSystemCode } from "../codes/ensure-system-code.js";
import type { AttemptRow } from "../payments/attempt-row.js";
import { offsetEntry } from "../transactions/offset-entry.js";
import { entryState, selectTransactions } from "../transactions/transaction-view.js";

// The ledger side of what the gateway reports later, always through the ledger writer, dated today
// (postEntries moves a posting dated today past a closed period): the reversal of a returned or
// charged-back payment, the payment posted back when a chargeback is reversed, and the return fee.

/** The system code a return fee posts under (negative: made by the system, never edited). */
export const ACH_RETURN_FEE_CODE = -7;

/**
 * Reverses the attempt's payment entry, described as `description` (e.g. "ACH return R01
 * Insufficient funds"); null when there is nothing left to reverse (never posted, or already
 * voided or reversed, e.g. refunded by staff).
 */
export async function postPaymentReversal(
  tx: Executor,
  attempt: AttemptRow,
  description: string,
  by: { eventId: number; gatewayTransId: string; createdByUserId: number | null },
): Promise<number | null> {
  if (attempt.transactionId === null) return null;
  const [entry] = await selectTransactions(
    tx,
    and(eq(transactions.clientId, attempt.clientId), eq(transactions.id, attempt.transactionId)),
  );
  if (!entry || !isReversible(entryState(entry))) return null;
  const {
    ids: [id],
  } = await postEntries(tx, { clientId: attempt.clientId }, [
    {
      ...offsetEntry(entry, "reversal", {
        createdByUserId: by.createdByUserId,
        gatewayTransId: by.gatewayTransId || null,
      }),
      description: description.slice(0, 60),
      sourceKey: `gateway-event:${by.eventId}`,
    },
  ]);
  return id ?? null;
}

/** Posts the payment again (a chargeback reversed: the money came back to the merchant). */
export async function postPaymentBack(
  tx: Executor,
  attempt: AttemptRow,
  description: string,
  by: { eventId: number; gatewayTransId: string; createdByUserId: number | null },
): Promise<number | null> {
  const codeId = await ensurePaymentCode(tx, attempt.clientId, attempt.method);
  const {
    ids: [id],
  } = await postEntries(tx, { clientId: attempt.clientId }, [
    {
      customerId: attempt.customerId,
      codeId,
      codeType: "payment",
      description: description.slice(0, 60),
      rate: attempt.amount,
      quantity: "1",
      serviceDate: businessToday(),
      datedToday: true,
      createdByUserId: by.createdByUserId,
      sourceKey: `gateway-event:${by.eventId}`,
      gatewayTransId: by.gatewayTransId || null,
    },
  ]);
  return id ?? null;
}

function ensureFeeCode(tx: Executor, clientId: number): Promise<number> {
  return ensureSystemCode(tx, clientId, {
    code: ACH_RETURN_FEE_CODE,
    codeName: "ACH return fee",
    description: "ACH return fee",
    codeType: "charge",
  });
}

/** Charges the client's return fee for a returned entry (a charge through the ledger writer). */
export async function postReturnFee(
  tx: Executor,
  attempt: AttemptRow,
  fee: string,
  description: string,
  by: { eventId: number; createdByUserId: number | null },
): Promise<number | null> {
  const codeId = await ensureFeeCode(tx, attempt.clientId);
  const posted = await postEntries(
    tx,
    { clientId: attempt.clientId },
    [
      {
        customerId: attempt.customerId,
        codeId,
        codeType: "charge",
        description: description.slice(0, 60),
        rate: fee,
        quantity: "1",
        serviceDate: businessToday(),
        datedToday: true,
        createdByUserId: by.createdByUserId,
        sourceKey: `gateway-event-fee:${by.eventId}`,
      },
    ],
    // An archived customer takes no new charge: the return is still reversed, the fee left out.
    "skip",
  );
  return posted.ids[0] ?? null;
}

/**
 * The original entry a (re-presented) attempt belongs to: a re-presentment's key names it
 * ("re-present:<original attempt id>:<n>"); any other attempt is its own original.
 */
export function originalAttemptIdOf(attempt: AttemptRow): number {
  const match = /^re-present:(\d+):\d+$/.exec(attempt.idempotencyKey);
  return match ? Number(match[1]) : attempt.id;
}

/** Presentations again of an original entry, and its events that charged a return fee. */
const entryHistoryRowSchema = z.object({ represented: dbInt, fees: dbInt });

/** How often the original entry was presented again so far, and whether its return fee was charged. */
export async function historyOfEntry(
  tx: Executor,
  clientId: number,
  originalAttemptId: number,
): Promise<{ represented: number; feeCharged: boolean }> {
  const prefix = `re-present:${originalAttemptId}:%`;
  const [row] = await queryRows(
    tx,
    sql`select
          (select count(*) from payment_attempts a
            where a.client_id = ${clientId} and a.idempotency_key like ${prefix}) +
          (select count(*) from gateway_events e
            where e.client_id = ${clientId} and e.kind = 're_presented' and e.attempt_id is null
              and e.original_trans_id = (select gateway_trans_id from payment_attempts
                                          where client_id = ${clientId} and id = ${originalAttemptId}))
            as represented,
          (select count(*) from gateway_events e
            join payment_attempts a on a.client_id = e.client_id and a.id = e.attempt_id
            where e.client_id = ${clientId} and e.fee_transaction_id is not null
              and (a.id = ${originalAttemptId} or a.idempotency_key like ${prefix})) as fees`,
    entryHistoryRowSchema,
  );
  return { represented: row?.represented ?? 0, feeCharged: (row?.fees ?? 0) > 0 };
}
