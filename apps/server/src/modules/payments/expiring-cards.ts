import { sql, type SQL } from "drizzle-orm";
import {
  expiringCardSchema,
  nextChargeDate,
  paymentMethodLabel,
  resolvePaging,
  type ExpiringCard,
  type ExpiringCardsQuery,
  type Page,
} from "@cyclebill/domain";
import { z } from "zod";
import { businessToday } from "../../clock.js";
import type { Database, Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbInt, dbText } from "../../db/row-schemas.js";
import type { TenantContext } from "../../http/auth-context.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import type { Mailer } from "../mail/mailer.js";
import { expiringCardEmail } from "./expiring-card.email.js";

// Cards on file that will not last to the customer's next charge (the autopay charge its last
// statement announced, else the one after the client's next cycle: nextChargeDate): listed for the
// owner on Process CC, and the customer is emailed once per card. "Once" is the unique key of
// expiring_card_notices (customer, mask, card type, expiry): the daily job inserts what is due and
// sends what is queued, each send claimed first (queued -> sending) as payment receipts are.

export const EXPIRING_CARDS_JOB = "expiring-cards";
const MAX_NOTICE_ATTEMPTS = 5;
const RECLAIM_MINUTES = 5;

/** The client's last billing date and due days. */
const clientTermsRowSchema = z.object({ last: dbDate.nullable(), due_days: dbInt });

/** The client's next charge when no statement announced one (its next cycle's autopay day). */
async function clientNextCharge(db: Executor, clientId: number, today: string): Promise<string | null> {
  const [client] = await queryRows(
    db,
    sql`select date_last_billing::text as last, due_days from clients where id = ${clientId}`,
    clientTermsRowSchema,
  );
  if (!client) return null;
  return nextChargeDate({
    today,
    announcedChargeOn: null,
    dateLastBilling: client.last,
    dueDays: client.due_days,
  });
}

/**
 * The client's expiring cards (a subquery: customer, card, next_charge_on, dead_on): a card is good
 * through its expiry month, so it is dead on the 1st of the month after; an unreadable expiry
 * counts as expiring.
 */
function expiringCards(clientId: number, today: string, clientNext: string): SQL {
  return sql`(select * from (
      select c.client_id, c.id as customer_id, c.customer_no, c.customer_name, c.email, c.autopay_flag,
             m.mask, m.card_type, m.expiry,
             case when m.expiry ~ '^(0[1-9]|1[0-2])[0-9]{2}$'
                  then (make_date(2000 + substr(m.expiry, 3, 2)::int, substr(m.expiry, 1, 2)::int, 1)
                        + interval '1 month')::date end as dead_on,
             coalesce((select max(s.autopay_charge_date) from statements s
                       where s.client_id = c.client_id and s.customer_id = c.id
                         and s.autopay_charge_date >= ${today}::date),
                      ${clientNext}::date) as next_charge_on
      from customers c
      join customer_payment_methods m on m.client_id = c.client_id and m.customer_id = c.id
      where c.client_id = ${clientId} and not c.deleted and m.kind = 'card') cards
    where cards.dead_on is null or cards.dead_on <= cards.next_charge_on)`;
}

/** An expiring card as the list's query returns it: the API's row, ids and date as the drivers read them. */
const expiringRowSchema = expiringCardSchema.extend({
  customer_id: dbInt,
  customer_no: dbInt,
  next_charge_on: dbDate,
});

const expiringTotalRowSchema = z.object({ total: dbInt });

/** GET /api/payment-methods/expiring/: the client's cards on file expiring before the next charge. */
export async function listExpiringCards(
  db: Executor,
  tenant: TenantContext,
  query: ExpiringCardsQuery,
): Promise<Page<ExpiringCard>> {
  const today = businessToday();
  const clientNext = (await clientNextCharge(db, tenant.clientId, today)) ?? today;
  const from = sql`from ${expiringCards(tenant.clientId, today, clientNext)} e
    left join expiring_card_notices n on n.client_id = e.client_id and n.customer_id = e.customer_id
      and n.mask = e.mask and n.card_type = e.card_type and n.expiry = e.expiry`;
  const { limit, offset } = resolvePaging(query);
  const [rows, totals] = await Promise.all([
    queryRows(
      db,
      sql`select e.customer_id, e.customer_no, e.customer_name, e.autopay_flag, e.mask, e.card_type,
                 e.expiry, e.next_charge_on::text as next_charge_on,
                 to_char(n.sent_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as notified_at
          ${from}
          order by e.dead_on nulls first, e.customer_no, e.customer_id
          limit ${limit} offset ${offset}`,
      expiringRowSchema,
    ),
    queryRows(db, sql`select count(*) as total ${from}`, expiringTotalRowSchema),
  ]);
  return {
    count: totals[0]?.total ?? 0,
    results: rows.map((row) => ({
      customer_id: row.customer_id,
      customer_no: row.customer_no,
      customer_name: row.customer_name,
      mask: row.mask,
      card_type: row.card_type,
      expiry: row.expiry,
      autopay_flag: row.autopay_flag,
      next_charge_on: row.next_charge_on,
      notified_at: row.notified_at,
    })),
  };
}

/** A row's id: a client's, or a notice's just queued. */
const idRowSchema = z.object({ id: dbInt });

/**
 * Queues the one notice per expiring card of every client (customers with an email address); the
 * unique key makes a second run, or a replayed job, queue nothing twice. Answers how many were new.
 */
export async function queueExpiringCardNotices(db: Database, today = businessToday()): Promise<number> {
  const clientRows = await queryRows(db, sql`select id from clients order by id`, idRowSchema);
  let queued = 0;
  for (const { id: clientId } of clientRows) {
    const clientNext = (await clientNextCharge(db, clientId, today)) ?? today;
    const inserted = await queryRows(
      db,
      sql`insert into expiring_card_notices
            (client_id, customer_id, mask, card_type, expiry, recipient, next_charge_on)
          select e.client_id, e.customer_id, e.mask, e.card_type, e.expiry, trim(e.email), e.next_charge_on
          from ${expiringCards(clientId, today, clientNext)} e
          where trim(e.email) <> ''
          on conflict (client_id, customer_id, mask, card_type, expiry) do nothing
          returning id`,
      idRowSchema,
    );
    queued += inserted.length;
  }
  return queued;
}

const noticeRowSchema = z.object({
  id: dbInt,
  client_id: dbInt,
  recipient: dbText,
  mask: dbText,
  card_type: dbText,
  expiry: dbText,
  next_charge_on: dbDate,
  customer_name: dbText,
  customer_no: dbInt,
  client_name: dbText,
  client_phone: dbText,
  client_email: dbText,
});
type NoticeRow = z.output<typeof noticeRowSchema>;

/** Takes one queued notice to send: claimed, so no other job sends it. */
async function claimNotice(db: Database, tried: readonly number[]): Promise<NoticeRow | null> {
  const [row] = await queryRows(
    db,
    sql`with claimed as (
          update expiring_card_notices n set status = 'sending', attempts = attempts + 1, updated_at = now()
          where (n.client_id, n.id) in (
            select client_id, id from expiring_card_notices
            where (status = 'queued'
                   or (status = 'failed' and attempts < ${MAX_NOTICE_ATTEMPTS})
                   or (status = 'sending' and updated_at < now() - make_interval(mins => ${RECLAIM_MINUTES})))
              and id <> all(${sqlArray(tried, "bigint")})
            order by client_id, id limit 1
            for update skip locked)
          returning n.*)
        select c.id, c.client_id, c.recipient, c.mask, c.card_type, c.expiry,
               c.next_charge_on::text as next_charge_on, cu.customer_name, cu.customer_no,
               cl.client_name, cl.bus_phone as client_phone, cl.email as client_email
        from claimed c
        join customers cu on cu.client_id = c.client_id and cu.id = c.customer_id
        join clients cl on cl.id = c.client_id`,
    noticeRowSchema,
  );
  return row ?? null;
}

/** Sends the queued notices, each marked sent or failed (a failed one is tried again next run). */
export async function sendExpiringCardNotices(
  db: Database,
  mailer: Mailer,
): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  const tried: number[] = [];
  for (let row = await claimNotice(db, tried); row !== null; row = await claimNotice(db, tried)) {
    tried.push(row.id);
    try {
      await mailer.send(
        expiringCardEmail({
          to: row.recipient,
          messageId: `<expiring-card-${row.client_id}-${row.id}@cyclebill.local>`,
          clientName: row.client_name,
          clientPhone: row.client_phone,
          clientEmail: row.client_email,
          customerName: row.customer_name,
          customerNo: row.customer_no,
          card: paymentMethodLabel({ kind: "card", card_type: row.card_type, mask: row.mask }),
          expiry: row.expiry,
          nextChargeOn: row.next_charge_on,
        }),
      );
    } catch (error) {
      failed += 1;
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      await db.execute(
        sql`update expiring_card_notices set status = 'failed', last_error = ${message}, updated_at = now()
            where client_id = ${row.client_id} and id = ${row.id}`,
      );
      continue;
    }
    sent += 1;
    await db.execute(
      sql`update expiring_card_notices set status = 'sent', last_error = null, sent_at = now(), updated_at = now()
          where client_id = ${row.client_id} and id = ${row.id}`,
    );
  }
  return { sent, failed };
}
