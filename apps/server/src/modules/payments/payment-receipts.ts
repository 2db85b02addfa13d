import { sql } from "drizzle-orm";
import { newestStatementFirst } from "../statements/newer-statement.sql.js";
import { z } from "zod";
import { businessToday } from "../../clock.js";
import type { Database, Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { paymentMethodKinds, paymentReceiptKinds, paymentReceipts } from "../../db/tables.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import type { Mailer } from "../mail/mailer.js";
import { paymentReceiptEmail } from "./payment-receipt.email.js";
import type { AttemptRow } from "./attempt-row.js";

type PaymentReceiptKind = (typeof paymentReceiptKinds)[number];

// Receipts are queued in the transaction that records the gateway's answer (one per attempt,
// unique) and sent by the payment-receipts job, never inside the request. Each send is claimed
// first (queued -> sending), so two jobs never send one receipt; a worker killed mid-send leaves
// it "sending", and it is taken again after RECLAIM_MINUTES under the same Message-ID.

export const PAYMENT_RECEIPTS_JOB = "payment-receipts";
/** Sends tried per receipt before it stays failed (the job retries with growing delays). */
export const MAX_RECEIPT_ATTEMPTS = 5;
const RECLAIM_MINUTES = 2;
const BATCH = 50;

/** The customer's email and balance, for a receipt. */
const receiptCustomerRowSchema = z.object({ email: dbText, balance: dbDecimal });
/** Who typed an email when paying what a refund gives back. */
const refundedPayerRowSchema = z.object({ payer_email: dbText });

/** The kind of email an attempt's answer calls for, or null for none. */
function receiptKindOf(attempt: AttemptRow, status: AttemptRow["status"]): PaymentReceiptKind | null {
  if (attempt.kind === "refund" || attempt.kind === "void") return status === "approved" ? "refund" : null;
  if (attempt.kind !== "sale") return null;
  if (status === "approved") return "receipt";
  return status === "declined" && attempt.source === "autopay" ? "declined" : null;
}

/** The email the payer of the refunded payment typed on the page ("" when none or unknown). */
async function refundedPayerEmail(tx: Executor, attempt: AttemptRow): Promise<string> {
  if (attempt.refundsTransactionId === null) return "";
  const [payment] = await queryRows(
    tx,
    sql`select payer_email from payment_attempts
        where client_id = ${attempt.clientId} and transaction_id = ${attempt.refundsTransactionId}
          and kind = 'sale' and status = 'approved'
        limit 1`,
    refundedPayerRowSchema,
  );
  return payment?.payer_email ?? "";
}

/**
 * Queues the email an attempt's answer calls for, inside the caller's transaction: a receipt for an
 * approved sale, a notice for a declined autopay charge, a refund notice for an approved refund (or
 * void) of a card or ACH payment. The payer's email typed on the public page (for a refund, the one
 * typed with the payment refunded), else the customer's; none when neither is known. One per
 * attempt (unique), sent by the payment-receipts job as receipts are. Returns whether one was queued.
 */
export async function queueReceipt(
  tx: Executor,
  attempt: AttemptRow,
  status: AttemptRow["status"],
): Promise<boolean> {
  const kind = receiptKindOf(attempt, status);
  if (kind === null) return false;
  const [customer] = await queryRows(
    tx,
    sql`select email, total_balance::text as balance from customers
        where client_id = ${attempt.clientId} and id = ${attempt.customerId}`,
    receiptCustomerRowSchema,
  );
  const payerEmail = kind === "refund" ? await refundedPayerEmail(tx, attempt) : attempt.payerEmail;
  const recipient = (payerEmail || customer?.email || "").trim();
  if (!recipient || !customer) return false;
  const inserted = await tx
    .insert(paymentReceipts)
    .values({
      clientId: attempt.clientId,
      attemptId: attempt.id,
      customerId: attempt.customerId,
      kind,
      recipient,
      paidOn: businessToday(),
      balanceAfter: customer.balance,
    })
    .onConflictDoNothing()
    .returning({ id: paymentReceipts.id });
  return inserted.length > 0;
}

const receiptRowSchema = z.object({
  id: dbInt,
  client_id: dbInt,
  kind: z.enum(paymentReceiptKinds),
  recipient: dbText,
  paid_on: dbDate,
  balance_after: dbDecimal,
  amount: dbDecimal,
  mask: dbText,
  card_type: dbText,
  method: z.enum(paymentMethodKinds),
  gateway_trans_id: dbText,
  message: dbText,
  customer_name: dbText,
  customer_no: dbInt,
  client_name: dbText,
  client_phone: dbText,
  client_email: dbText,
  statement_num: dbInt.nullable(),
  statement_date: dbDate.nullable(),
  credited_on: dbDate.nullable(),
});
type ReceiptRow = z.output<typeof receiptRowSchema>;

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}

function methodText(row: ReceiptRow): string {
  const last4 = row.mask.replace(/[^0-9]/g, "").slice(-4);
  const mask = last4 ? `ending in ${last4}` : "";
  if (row.method === "ach") return `Bank account ${mask}`.trim();
  return `${row.card_type || "Card"} ${mask}`.trim();
}

/** Takes up to BATCH receipts to send (one client's, or every client's): claimed, so no other job sends them. */
async function claimBatch(db: Database, clientId: number | null, tried: number[]): Promise<ReceiptRow[]> {
  return queryRows(
    db,
    sql`with claimed as (
          update payment_receipts r set status = 'sending', attempts = attempts + 1, updated_at = now()
          where (r.client_id, r.id) in (
            select client_id, id from payment_receipts
            where (${clientId}::bigint is null or client_id = ${clientId}::bigint)
              and (status = 'queued'
                   or (status = 'failed' and attempts < ${MAX_RECEIPT_ATTEMPTS})
                   or (status = 'sending' and updated_at < now() - make_interval(mins => ${RECLAIM_MINUTES})))
              and id <> all(${sqlArray(tried, "bigint")})
            order by client_id, id limit ${BATCH}
            for update skip locked)
          returning r.*)
        select c.id, c.client_id, c.kind, c.recipient, c.paid_on::text as paid_on,
               c.balance_after::text as balance_after, a.amount::text as amount, a.mask, a.card_type,
               a.method, a.gateway_trans_id, a.message, cu.customer_name, cu.customer_no,
               cl.client_name, cl.bus_phone as client_phone, cl.email as client_email,
               s.statement_num, s.statement_date::text as statement_date,
               (select t.service_date::text from transactions t
                where t.client_id = a.client_id and t.id = a.transaction_id) as credited_on
        from claimed c
        join payment_attempts a on a.client_id = c.client_id and a.id = c.attempt_id
        join customers cu on cu.client_id = c.client_id and cu.id = c.customer_id
        join clients cl on cl.id = c.client_id
        left join lateral (
          select statement_num, statement_date from statements st
          where st.client_id = c.client_id and st.customer_id = c.customer_id
            and (a.statement_id is null or st.id = a.statement_id)
          order by ${newestStatementFirst(sql`st.statement_date`, sql`st.id`)} limit 1) s on true
        order by c.client_id, c.id`,
    receiptRowSchema,
  );
}

/** Failed receipts that may still be retried. */
const retryableCountRowSchema = z.object({ count: dbInt });

/**
 * Sends the queued receipts (of one client, or all): each is claimed, sent, then marked sent or
 * failed. Throws while some failed one may still be retried, so the job tries again with backoff.
 */
export async function sendPaymentReceipts(
  db: Database,
  mailer: Mailer,
  clientId: number | null,
): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  // Ids already tried by this call: a failed one waits for the job's next try (with backoff).
  const tried: number[] = [];
  for (;;) {
    const batch = await claimBatch(db, clientId, tried);
    if (batch.length === 0) break;
    tried.push(...batch.map((row) => row.id));
    for (const row of batch) {
      const messageId = `<payment-receipt-${row.client_id}-${row.id}@cyclebill.local>`;
      try {
        await mailer.send(
          paymentReceiptEmail({
            kind: row.kind,
            to: row.recipient,
            messageId,
            clientName: row.client_name,
            clientPhone: row.client_phone,
            clientEmail: row.client_email,
            customerName: row.customer_name,
            customerNo: row.customer_no,
            amount: row.amount,
            method: methodText(row),
            paidOn: row.paid_on,
            creditedOn: row.credited_on,
            gatewayTransId: row.gateway_trans_id,
            statement:
              row.statement_num !== null && row.statement_date !== null
                ? { number: row.statement_num, date: row.statement_date }
                : null,
            balanceAfter: row.balance_after,
            message: row.message,
          }),
        );
      } catch (error) {
        failed += 1;
        await db.execute(
          sql`update payment_receipts set status = 'failed', last_error = ${errorText(error)}, updated_at = now()
              where client_id = ${row.client_id} and id = ${row.id}`,
        );
        continue;
      }
      sent += 1;
      await db.execute(
        sql`update payment_receipts set status = 'sent', last_error = null, message_id = ${messageId},
                                        sent_at = now(), updated_at = now()
            where client_id = ${row.client_id} and id = ${row.id}`,
      );
    }
  }
  if (failed > 0) {
    const [retryable] = await queryRows(
      db,
      sql`select count(*) as count from payment_receipts
          where (${clientId}::bigint is null or client_id = ${clientId}::bigint)
            and status = 'failed' and attempts < ${MAX_RECEIPT_ATTEMPTS}`,
      retryableCountRowSchema,
    );
    if ((retryable?.count ?? 0) > 0)
      throw new Error(`${retryable?.count} payment receipts failed; they will be retried`);
  }
  return { sent, failed };
}
