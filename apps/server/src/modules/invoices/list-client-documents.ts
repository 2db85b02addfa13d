import { sql, type SQL } from "drizzle-orm";
import {
  CLIENT_DOCUMENT_ORDERING_FIELDS,
  STATEMENT_DELIVERY_STATUSES,
  clientDocumentSchema,
  invoiceActions,
  statementActions,
  parseOrdering,
  resolvePaging,
  type ClientDocument,
  type ClientDocumentOrderingField,
  type ClientDocumentsQuery,
  type Page,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { amountDueNowSql, statementDueDateSql } from "../statements/amount-due.sql.js";
import { isNewerStatement } from "../statements/newer-statement.sql.js";
import { statementContext, type StatementContext } from "../statements/list-statements.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError, notFound } from "../../http/errors.js";
import { businessToday } from "../../clock.js";

// The Invoices and Statements list of the whole client: both kinds in one query (a UNION over a
// CTE), filtered, sorted and paged in SQL, each row with its amount, amount due and due date.
//
// Amount due, as a bookkeeper reads it:
// - a statement: the one rule (the domain's amountDueNow, here as amountDueNowSql): older statements
//   were carried forward into the latest (their balance is its previous balance), so nothing is due
//   on them; the latest is due at its new balance capped by what the customer owes now (payments
//   since lower it, new charges are the next statement's). Autopay changes nothing until it is paid:
//   a declined autopay leaves the statement due, and overdue after its due date.
// - an invoice: its total (its lines, payments and credits on it included) less what the customer
//   has paid since. Payments settle the oldest charges first, so the part of the customer's balance
//   the invoice still carries is that balance less the charges dated after the invoice, at most
//   the invoice's total and never below zero.
// Due date: the document date plus the client's terms; a statement's is the one its PDF prints
// (statementDue: an autopay balance's charge day, none for a credit); an open invoice
// has none, as it has not gone out. Overdue: something due and the due date before business today.

/** A document as the list's query returns it: the API's row, with its email's columns flat and no actions. */
const documentRowSchema = clientDocumentSchema.omit({ email: true, actions: true, correction: true }).extend({
  version: dbInt.nullable(),
  replaced_by_id: dbInt.nullable(),
  corrected_on: dbDate.nullable(),
  queued_for_pool: z.boolean(),
  has_email: z.boolean(),
  id: dbInt,
  invoice_num: dbInt,
  customer_id: dbInt,
  customer_no: dbInt,
  invoice_date: dbDate,
  amount: dbDecimal,
  amount_due: dbDecimal,
  due_date: dbDate.nullable(),
  statement_id: dbInt.nullable(),
  email_status: z.enum(STATEMENT_DELIVERY_STATUSES).nullable(),
  email_recipient: dbText.nullable(),
  email_attempts: dbInt.nullable(),
  email_error: dbText.nullable(),
  email_sent: dbText.nullable(),
});
type Row = z.output<typeof documentRowSchema>;

const clientTermsRowSchema = z.object({ due_days: dbInt });
const customerIdRowSchema = z.object({ id: dbInt });
const countRowSchema = z.object({ count: dbInt });

const iso = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** Sort keys of the outer select (d.*); every ordering ends on kind and id so pages never overlap. */
const ORDER_COLUMNS: Record<ClientDocumentOrderingField, string> = {
  document: "d.document",
  invoice_num: "d.invoice_num",
  customer_no: "d.customer_no",
  customer_name: "lower(d.customer_name)",
  invoice_date: "d.invoice_date",
  created: "d.created_at",
  invoice_status: "d.invoice_status",
  amount: "d.amount",
  amount_due: "d.amount_due",
  due_date: "d.due_date",
  sent_state: "d.sent_state",
};
/** The screen's older column names. */
const ORDER_ALIASES: Record<string, ClientDocumentOrderingField> = {
  statement_date: "document",
  customer_id: "customer_no",
};

function orderBy(ordering: string | undefined): SQL {
  const allowed = [...CLIENT_DOCUMENT_ORDERING_FIELDS, ...Object.keys(ORDER_ALIASES)];
  const parsed = parseOrdering(ordering ?? "-invoice_date", allowed);
  if (!parsed.ok) {
    throw fieldError(
      "ordering",
      `Unknown ordering field: ${parsed.unknown.join(", ")}. Allowed: ${CLIENT_DOCUMENT_ORDERING_FIELDS.join(", ")}.`,
    );
  }
  const terms = parsed.terms.map((term) => {
    const field = ORDER_ALIASES[term.field] ?? (term.field as ClientDocumentOrderingField);
    // Documents with no due date (open invoices) sort after the dated ones either way.
    const nulls = field === "due_date" ? " nulls last" : "";
    return `${ORDER_COLUMNS[field]}${term.descending ? " desc" : ""}${nulls}`;
  });
  // Newest first by default; on one date a statement before the invoices it carried.
  const ties = ["d.document desc", "d.invoice_num desc", "d.id desc"];
  return sql.raw([...terms, ...ties].join(", "));
}

/** Every document of the client that the filters keep, with its figures (d.*). */
function documentsOf(clientId: number, dueDays: number, today: string, customerId: number | undefined): SQL {
  const customerFilter = customerId === undefined ? sql`` : sql`and c.id = ${customerId}`;
  return sql`
    with cust as (
      select c.id, c.customer_no, c.customer_name, c.total_balance, c.email,
             (c.autopay_flag and trim(k.bluepay_account_id) <> '' and k.bluepay_secret_key_encrypted is not null
              and exists (select 1 from customer_payment_methods m
                          where m.client_id = c.client_id and m.customer_id = c.id)) as autopay
      from customers c join clients k on k.id = c.client_id
      where c.client_id = ${clientId} ${customerFilter}
    ),
    inv as (
      select i.*, cust.customer_no, cust.customer_name, cust.total_balance, cust.autopay,
             (select coalesce(sum(t.ledger_amount), 0) from transactions t
              where t.client_id = i.client_id and t.invoice_id = i.id and not t.voided)::numeric(14,2) as amount
      from invoices i join cust on cust.id = i.customer_id
      where i.client_id = ${clientId}
    ),
    docs as (
      select 'invoice'::text as document, inv.id,
             case when inv.invoice_num = 0 then 1 else inv.invoice_num end as invoice_num,
             inv.customer_id, inv.customer_no, inv.customer_name, inv.invoice_date, inv.created_at,
             inv.invoice_status, inv.amount,
             case when inv.amount <= 0 or inv.total_balance <= 0 then 0::numeric(14,2)
                  else greatest(0, least(inv.amount, inv.total_balance - (
                    select coalesce(sum(t.ledger_amount), 0) from transactions t
                    where t.client_id = inv.client_id and t.customer_id = inv.customer_id
                      and t.service_date > inv.invoice_date and t.ledger_amount > 0 and not t.voided
                      and t.invoice_id is distinct from inv.id)))::numeric(14,2)
             end as amount_due,
             case when inv.invoice_status = 'open' then null else inv.invoice_date + ${dueDays}::int end as due_date,
             inv.statement_id, false as carried_forward, inv.autopay,
             s.delivery, s.pool_id,
             null::int as version, null::bigint as replaced_by_id, null::date as corrected_on, false as queued_for_pool,
             false as has_email
      from inv left join statements s on s.client_id = inv.client_id and s.id = inv.statement_id
      union all
      select 'statement'::text, s.id, s.statement_num, s.customer_id, cust.customer_no, cust.customer_name,
             s.statement_date, s.created_at, s.invoice_status, s.new_balance,
             ${amountDueNowSql({
               newBalance: sql`s.new_balance`,
               currentBalance: sql`cust.total_balance`,
               superseded: sql`newer.id is not null`,
             })},
             ${statementDueDateSql({
               statementDate: sql`s.statement_date`,
               newBalance: sql`s.new_balance`,
               dueDays: sql`${dueDays}::int`,
               recordedChargeDate: sql`(case when nullif(s.autopay_method, '') is not null then s.autopay_charge_date end)`,
               autopayNow: sql`cust.autopay`,
             })},
             null, newer.id is not null, cust.autopay, s.delivery, s.pool_id,
             s.version::int, s.replaced_by_id, s.corrected_on,
             exists (select 1 from statement_resends r where r.client_id = s.client_id and r.statement_id = s.id
                       and r.channel = 'pool' and r.pool_id is null),
             trim(cust.email) <> ''
      from statements s join cust on cust.id = s.customer_id
      left join lateral (
        select n.id from statements n
        where n.client_id = s.client_id and n.customer_id = s.customer_id
          and ${isNewerStatement(
            { date: sql`n.statement_date`, id: sql`n.id` },
            { date: sql`s.statement_date`, id: sql`s.id` },
          )}
        limit 1
      ) newer on true
      where s.client_id = ${clientId}
    )
    select docs.*, e.status as email_status, e.recipient as email_recipient, e.attempts as email_attempts,
           e.last_error as email_error, ${iso("e.sent_at")} as email_sent,
           ${iso("p.downloaded_at")} as printed_at,
           coalesce(docs.amount_due > 0 and docs.due_date < ${today}::date, false) as overdue,
           case when docs.delivery is null then 'not_sent'
                when docs.delivery = 'pulled' then 'pulled'
                when e.status = 'failed' then 'failed'
                when (docs.delivery in ('email', 'both') and e.status is distinct from 'sent')
                  or (docs.delivery in ('mail', 'both', 'bulk') and p.downloaded_at is null) then 'waiting'
                else 'sent'
           end as sent_state
    from docs
    left join statement_deliveries e
      on e.client_id = ${clientId} and e.channel = 'email'
     and e.statement_id = case when docs.document = 'statement' then docs.id else docs.statement_id end
    left join pools p on p.id = docs.pool_id`;
}

function filtersOf(query: ClientDocumentsQuery): SQL {
  const filters: SQL[] = [sql`true`];
  if (query.start_date) filters.push(sql`d.invoice_date >= ${query.start_date}::date`);
  if (query.end_date) filters.push(sql`d.invoice_date <= ${query.end_date}::date`);
  if (query.document_type === "invoices") filters.push(sql`d.document = 'invoice'`);
  if (query.document_type === "statements") filters.push(sql`d.document = 'statement'`);
  if (query.invoice_status) filters.push(sql`d.invoice_status = ${query.invoice_status}`);
  if (query.balance === "open") filters.push(sql`d.amount_due > 0`);
  if (query.balance === "overdue") filters.push(sql`d.overdue`);
  return sql.join(filters, sql` and `);
}

function toApi(row: Row, context: StatementContext): ClientDocument {
  const replaced = row.replaced_by_id !== null;
  const proves = replaced || !context.failing.has(row.id);
  const statementState = {
    status: row.invoice_status,
    replaced,
    proves,
    periodClosed: context.closedThrough !== null && context.closedThrough >= row.invoice_date,
    statementDate: row.invoice_date,
    queuedForPool: row.queued_for_pool,
    hasEmail: row.has_email,
  };
  return {
    document: row.document,
    id: row.id,
    invoice_num: row.invoice_num,
    customer_id: row.customer_id,
    customer_no: row.customer_no,
    customer_name: row.customer_name,
    invoice_date: row.invoice_date,
    created: row.created,
    invoice_status: row.invoice_status,
    amount: row.amount,
    amount_due: row.amount_due,
    due_date: row.due_date,
    overdue: row.overdue,
    statement_id: row.statement_id,
    carried_forward: row.carried_forward,
    autopay: row.autopay,
    delivery: row.delivery,
    email:
      row.email_status === null
        ? null
        : {
            status: row.email_status,
            recipient: row.email_recipient ?? "",
            attempts: row.email_attempts ?? 0,
            error: row.email_error,
            sent: row.email_sent,
          },
    printed_at: row.printed_at,
    sent_state: row.sent_state,
    correction:
      row.document === "invoice"
        ? null
        : {
            version: row.version ?? 1,
            corrected_on: row.corrected_on,
            replaced_by: row.replaced_by_id,
            proves,
            queued_for_pool: row.queued_for_pool,
          },
    actions:
      row.document === "invoice"
        ? invoiceActions({ status: row.invoice_status })
        : statementActions(statementState),
  };
}

/** The client's invoices and statements, filtered, sorted and paged (15 a page unless asked). */
export async function listClientDocuments(
  db: Executor,
  tenant: TenantContext,
  query: ClientDocumentsQuery,
): Promise<Page<ClientDocument>> {
  const order = orderBy(query.ordering);
  const [client] = await queryRows(
    db,
    sql`select due_days from clients where id = ${tenant.clientId}`,
    clientTermsRowSchema,
  );
  if (!client) throw notFound();
  if (query.customer_id !== undefined) {
    // Another client's customer is a 404, as a foreign id is everywhere else.
    const [own] = await queryRows(
      db,
      sql`select id from customers where client_id = ${tenant.clientId} and id = ${query.customer_id}`,
      customerIdRowSchema,
    );
    if (!own) throw notFound();
  }
  const documents = documentsOf(tenant.clientId, client.due_days, businessToday(), query.customer_id);
  const where = filtersOf(query);
  const { limit, offset } = resolvePaging({ ...query, limit: query.limit ?? 15 });
  const [rows, [total]] = await Promise.all([
    queryRows(
      db,
      sql`select d.document, d.id, d.invoice_num, d.customer_id, d.customer_no, d.customer_name,
                 d.invoice_date::text as invoice_date, ${iso("d.created_at")} as created, d.invoice_status,
                 d.amount::text as amount, d.amount_due::text as amount_due, d.due_date::text as due_date,
                 d.overdue, d.statement_id, d.carried_forward, d.autopay, d.delivery, d.email_status,
                 d.email_recipient, d.email_attempts, d.email_error, d.email_sent, d.printed_at, d.sent_state,
                 d.version, d.replaced_by_id, d.corrected_on::text as corrected_on, d.queued_for_pool,
                 d.has_email
          from (${documents}) d where ${where} order by ${order} limit ${limit} offset ${offset}`,
      documentRowSchema,
    ),
    queryRows(db, sql`select count(*) as count from (${documents}) d where ${where}`, countRowSchema),
  ]);
  const context = await statementContext(
    db,
    tenant.clientId,
    rows.filter((row) => row.document === "statement").map((row) => row.customer_id),
  );
  return { count: total?.count ?? 0, results: rows.map((row) => toApi(row, context)) };
}
