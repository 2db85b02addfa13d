import { formatUsd, isNegativeAmount, negateAmount } from "@cyclebill/domain";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { paymentMethodKinds } from "../../db/tables.js";
import { usDate } from "@cyclebill/domain";
import { clientSender } from "../mail/mail-sender.js";
import type { Mailer, MailMessage } from "../mail/mailer.js";

// The customer's email about a returned ACH payment or a card chargeback: queued on the event in
// the transaction that reverses the payment (applyGatewayEvent), sent here by the
// gateway-followups job. Each is claimed first (queued -> sending), so two workers never send one;
// one left "sending" by a killed worker is taken again after RECLAIM_MINUTES, same Message-ID.

export const GATEWAY_FOLLOWUPS_JOB = "gateway-followups";
const MAX_NOTICE_ATTEMPTS = 5;
const RECLAIM_MINUTES = 2;
const BATCH = 50;

/** A claimed notice: its event (a return or chargeback), the payment, the customer and the client. */
const noticeRowSchema = z.object({
  id: dbInt,
  client_id: dbInt,
  kind: z.enum(["returned", "charged_back"]),
  recipient: dbText,
  reason_text: dbText,
  amount: dbDecimal,
  mask: dbText,
  method: z.enum(paymentMethodKinds),
  event_date: dbDate,
  balance: dbDecimal,
  customer_name: dbText,
  customer_no: dbInt,
  client_name: dbText,
  client_phone: dbText,
  client_email: dbText,
  description: dbText,
});
type NoticeRow = z.output<typeof noticeRowSchema>;

/** What the customer reads: which payment came back, why, and what they owe now. */
export function returnNoticeEmail(row: NoticeRow, messageId: string): MailMessage {
  const amount = formatUsd(row.amount);
  const last4 = row.mask.replace(/[^0-9]/g, "").slice(-4);
  const account = `${row.method === "ach" ? "bank account" : "card"}${last4 ? ` ending in ${last4}` : ""}`;
  const what = row.kind === "returned" ? "was returned by your bank" : "was charged back";
  const balance = isNegativeAmount(row.balance)
    ? `${formatUsd(negateAmount(row.balance))} credit`
    : formatUsd(row.balance);
  const contact = `${row.client_name}${row.client_phone ? ` at ${row.client_phone}` : ""}${row.client_email ? ` or ${row.client_email}` : ""}`;
  const text = [
    `Dear ${row.customer_name},`,
    "",
    `Your payment of ${amount} from your ${account} ${what} on ${usDate(row.event_date)}: ${row.description}.`,
    "The payment has been taken off your account.",
    "",
    `Account number: ${row.customer_no}`,
    `Balance due now: ${balance}`,
    "",
    `Please pay another way or contact ${contact}.`,
    "",
  ].join("\n");
  return {
    to: row.recipient,
    subject: `${row.client_name}: your payment of ${amount} ${what}`,
    text,
    messageId,
    sender: clientSender({ name: row.client_name, email: row.client_email }),
  };
}

async function claimBatch(db: Database, clientId: number | null, tried: number[]): Promise<NoticeRow[]> {
  const triedList =
    tried.length > 0
      ? sql.join(
          tried.map((id) => sql`${id}`),
          sql`, `,
        )
      : sql`0`;
  return queryRows(
    db,
    sql`with claimed as (
          update gateway_events e set notice_status = 'sending', notice_attempts = notice_attempts + 1,
                                      notice_updated_at = now()
          where (e.client_id, e.id) in (
            select client_id, id from gateway_events
            where (${clientId}::bigint is null or client_id = ${clientId}::bigint)
              and (notice_status = 'queued'
                   or (notice_status = 'failed' and notice_attempts < ${MAX_NOTICE_ATTEMPTS})
                   or (notice_status = 'sending'
                       and notice_updated_at < now() - make_interval(mins => ${RECLAIM_MINUTES})))
              and id not in (${triedList})
            order by client_id, id limit ${BATCH}
            for update skip locked)
          returning e.*)
        select c.id, c.client_id, c.kind, c.notice_recipient as recipient, c.reason as reason_text,
               a.amount::text as amount, a.mask, a.method, c.event_date::text as event_date,
               cu.total_balance::text as balance, cu.customer_name, cu.customer_no,
               cl.client_name, cl.bus_phone as client_phone, cl.email as client_email,
               coalesce(t.description, c.reason) as description
        from claimed c
        join payment_attempts a on a.client_id = c.client_id and a.id = c.attempt_id
        join customers cu on cu.client_id = c.client_id and cu.id = c.customer_id
        join clients cl on cl.id = c.client_id
        left join transactions t on t.client_id = c.client_id and t.id = c.transaction_id
        order by c.client_id, c.id`,
    noticeRowSchema,
  );
}

/** Sends the queued return and chargeback emails (of one client, or all). */
export async function sendGatewayNotices(
  db: Database,
  mailer: Mailer,
  clientId: number | null,
): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  const tried: number[] = [];
  for (;;) {
    const batch = await claimBatch(db, clientId, tried);
    if (batch.length === 0) break;
    tried.push(...batch.map((row) => row.id));
    for (const row of batch) {
      const messageId = `<gateway-event-${row.client_id}-${row.id}@cyclebill.local>`;
      try {
        await mailer.send(returnNoticeEmail(row, messageId));
      } catch (error) {
        failed += 1;
        const detail = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
        await db.execute(
          sql`update gateway_events set notice_status = 'failed', notice_error = ${detail}, notice_updated_at = now()
              where client_id = ${row.client_id} and id = ${row.id}`,
        );
        continue;
      }
      sent += 1;
      await db.execute(
        sql`update gateway_events set notice_status = 'sent', notice_error = null, notice_updated_at = now()
            where client_id = ${row.client_id} and id = ${row.id}`,
      );
    }
  }
  return { sent, failed };
}
