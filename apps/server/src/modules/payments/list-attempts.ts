import { sql, type SQL } from "drizzle-orm";
import {
  NEEDS_CHECKING_AFTER_MS,
  NEEDS_CHECKING_MESSAGE,
  paymentAttemptSchema,
  resolvePaging,
  type Page,
  type PaymentAttempt,
  type PaymentAttemptsQuery,
} from "@cyclebill/domain";
import { z } from "zod";
import { currentClock } from "../../clock.js";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { paymentReceiptKinds, paymentReceiptStatuses } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError } from "../../http/errors.js";

/** An attempt as the list's query returns it: the API's attempt, with its receipt's columns flat. */
const attemptListRowSchema = paymentAttemptSchema.omit({ settled_at: true, receipt: true }).extend({
  id: dbInt,
  client_id: dbInt,
  customer_id: dbInt,
  customer_no: dbInt,
  amount: dbDecimal,
  transaction_id: dbInt.nullable(),
  card_run_id: dbInt.nullable(),
  settled: dbText.nullable(),
  receipt_kind: z.enum(paymentReceiptKinds).nullable(),
  receipt_status: z.enum(paymentReceiptStatuses).nullable(),
  receipt_recipient: dbText.nullable(),
  receipt_sent: dbText.nullable(),
});
type AttemptListRow = z.output<typeof attemptListRowSchema>;

const countRowSchema = z.object({ count: dbInt });

/** A declined autopay charge the customer has paid nothing (approved) since. */
const NEEDS_ATTENTION = sql`(a.source = 'autopay' and a.kind = 'sale' and a.status = 'declined'
  and not exists (select 1 from payment_attempts later
                  where later.client_id = a.client_id and later.customer_id = a.customer_id
                    and later.kind = 'sale' and later.status = 'approved' and later.id > a.id))`;

const iso = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

const ORDERINGS: Record<string, SQL> = {
  created: sql`a.created_at, a.id`,
  "-created": sql`a.created_at desc, a.id desc`,
  id: sql`a.id`,
  "-id": sql`a.id desc`,
  amount: sql`a.amount, a.id`,
  "-amount": sql`a.amount desc, a.id desc`,
};

function toApi(row: AttemptListRow): PaymentAttempt {
  return {
    id: row.id,
    client_id: row.client_id,
    customer_id: row.customer_id,
    customer_no: row.customer_no,
    customer_name: row.customer_name,
    kind: row.kind,
    source: row.source,
    method: row.method,
    amount: row.amount,
    status: row.status,
    message: row.needs_checking ? NEEDS_CHECKING_MESSAGE : row.message,
    gateway_trans_id: row.gateway_trans_id,
    mask: row.mask,
    card_type: row.card_type,
    transaction_id: row.transaction_id,
    card_run_id: row.card_run_id,
    created: row.created,
    settled_at: row.settled,
    needs_checking: row.needs_checking,
    receipt:
      row.receipt_kind && row.receipt_status
        ? {
            kind: row.receipt_kind,
            status: row.receipt_status,
            recipient: row.receipt_recipient ?? "",
            sent_at: row.receipt_sent,
          }
        : null,
    needs_attention: row.needs_attention,
  };
}

/** GET /api/payment-attempts/: the client's attempts (declines and refunds included), newest first. */
export async function listPaymentAttempts(
  db: Executor,
  tenant: TenantContext,
  query: PaymentAttemptsQuery,
): Promise<Page<PaymentAttempt>> {
  const ordering = query.ordering?.trim() || "-created";
  const order = ORDERINGS[ordering];
  if (!order) throw fieldError("ordering", `Unknown ordering "${ordering}".`);
  const filters: SQL[] = [sql`a.client_id = ${tenant.clientId}`];
  if (query.customer_id !== undefined) filters.push(sql`a.customer_id = ${query.customer_id}`);
  if (query.card_run_id !== undefined) filters.push(sql`a.card_run_id = ${query.card_run_id}`);
  if (query.needs_attention) filters.push(NEEDS_ATTENTION);
  const where = sql.join(filters, sql` and `);
  const { limit, offset } = resolvePaging(query);
  const checkBefore = new Date(currentClock().now().getTime() - NEEDS_CHECKING_AFTER_MS).toISOString();
  const [rows, [total]] = await Promise.all([
    queryRows(
      db,
      sql`select a.id, a.client_id, a.customer_id, c.customer_no, c.customer_name, a.kind, a.source, a.method,
                 a.amount::text as amount, a.status, a.message, a.gateway_trans_id, a.mask, a.card_type,
                 a.transaction_id, a.card_run_id, ${iso("a.created_at")} as created, ${iso("a.settled_at")} as settled,
                 (a.status = 'unknown' and a.created_at < ${checkBefore}::timestamptz) as needs_checking,
                 r.kind as receipt_kind, r.status as receipt_status, r.recipient as receipt_recipient,
                 ${iso("r.sent_at")} as receipt_sent, ${NEEDS_ATTENTION} as needs_attention
          from payment_attempts a
          join customers c on c.client_id = a.client_id and c.id = a.customer_id
          left join payment_receipts r on r.client_id = a.client_id and r.attempt_id = a.id
          where ${where} order by ${order} limit ${limit} offset ${offset}`,
      attemptListRowSchema,
    ),
    queryRows(db, sql`select count(*) as count from payment_attempts a where ${where}`, countRowSchema),
  ]);
  return { count: total?.count ?? 0, results: rows.map(toApi) };
}
