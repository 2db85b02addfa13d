import { sql, type SQL } from "drizzle-orm";
import { CANNOT_DELIVER_REASONS, type WorkItemKind } from "@cyclebill/domain";

// One SQL select per kind of work item, each answering the same columns: kind, key, client_id,
// client_name, customer_id, label (a customer or pool name), detail, amount, since. `scope` limits
// them to one client (an owner's part, or the admin's chosen client) or leaves them all.

export type WorkItemRow = {
  kind: WorkItemKind;
  key: string;
  client_id: number;
  client_name: string;
  customer_id: number | null;
  label: string;
  detail: string;
  amount: string | null;
  since: string;
};

/** How far back a decline or a return is still news (older ones are in the reports). */
const RECENT_DAYS = 45;

type Scope = { clientId: number | null; today: string; now: Date };

function clientFilter(column: string, scope: Scope): SQL {
  return scope.clientId === null ? sql`` : sql`and ${sql.raw(column)} = ${scope.clientId}`;
}

function notHandled(kind: WorkItemKind, clientColumn: string, key: SQL): SQL {
  return sql`and not exists (select 1 from work_items_handled h
                             where h.client_id = ${sql.raw(clientColumn)} and h.kind = ${kind} and h.key = ${key})`;
}

const customerName = sql`coalesce(nullif(cu.customer_name, ''), trim(coalesce(cu.first_name, '') || ' ' || coalesce(cu.last_name, '')))`;

/** Runs of the provider that failed and were not retried since. */
function runsFailed(scope: Scope): SQL {
  return sql`select 'run_failed' as kind, pr.id::text as key, pr.client_id, cl.client_name,
                    null::bigint as customer_id, 'Cycle ' || pr.cycle || ' of ' || to_char(pr.run_date, 'MM/DD/YYYY') as label,
                    coalesce(left(pr.error, 300), 'The run stopped.') as detail, null::text as amount,
                    to_json(coalesce(pr.finished_at, pr.created_at)) #>> '{}' as since
             from production_runs pr join clients cl on cl.id = pr.client_id
             where pr.status = 'failed' ${clientFilter("pr.client_id", scope)}`;
}

/** Ready pools nobody has downloaded for print (a pulled pool is kept, not printed). */
function poolsNotDownloaded(scope: Scope): SQL {
  return sql`select 'pool_not_downloaded' as kind, p.pool_name as key, p.client_id, cl.client_name,
                    null::bigint as customer_id, p.pool_name as label,
                    p.statements_count || ' statement' || case when p.statements_count = 1 then '' else 's' end
                      || ', ' || p.pages_count || ' page' || case when p.pages_count = 1 then '' else 's' end
                      || ' (' || p.fulfilment || ')' as detail,
                    null::text as amount, to_json(coalesce(p.finished_at, p.created_at)) #>> '{}' as since
             from pools p join clients cl on cl.id = p.client_id
             where p.state = 'ready' and p.downloaded_at is null and p.fulfilment <> 'pulled'
               ${clientFilter("p.client_id", scope)}`;
}

/** How many of a run part's customers got no statement for a reason: its recorded figure. */
const heldBack = (reason: string) =>
  sql.raw(`coalesce((pr.figures -> 'no_statement' ->> '${reason}')::int, 0)`);

/**
 * Runs of the last weeks that held statements back because the customer's record cannot be
 * delivered as its flags say (no mailing address, no email address), until a person marks them
 * handled (the records fixed, the statements sent another way).
 */
function statementsUndeliverable(scope: Scope): SQL {
  const [address, email] = CANNOT_DELIVER_REASONS.map(heldBack) as [SQL, SQL];
  return sql`select 'statement_undeliverable' as kind, pr.id::text as key, pr.client_id, cl.client_name,
                    null::bigint as customer_id, 'Cycle ' || pr.cycle || ' of ' || to_char(pr.run_date, 'MM/DD/YYYY') as label,
                    ${address} || ' without a valid mailing address, ' || ${email}
                      || ' without an email address: no statement was made for them' as detail,
                    null::text as amount, pr.run_date::text as since
             from production_runs pr join clients cl on cl.id = pr.client_id
             where pr.status = 'done' and pr.undone_at is null
               and pr.run_date >= ${scope.today}::date - ${RECENT_DAYS}::int
               and ${address} + ${email} > 0 ${clientFilter("pr.client_id", scope)}
               ${notHandled("statement_undeliverable", "pr.client_id", sql`pr.id::text`)}`;
}

/** Statement emails the mail server refused or that never went, not marked handled. */
function emailsFailed(scope: Scope): SQL {
  return sql`select 'email_failed' as kind, d.id::text as key, d.client_id, cl.client_name,
                    s.customer_id, ${customerName} || ' (' || cu.customer_no || ')' as label,
                    'Statement ' || s.statement_num || ' to ' || d.recipient || ': '
                      || coalesce(left(d.last_error, 200), 'not sent') as detail,
                    null::text as amount, to_json(d.updated_at) #>> '{}' as since
             from statement_deliveries d
             join statements s on s.client_id = d.client_id and s.id = d.statement_id
             join customers cu on cu.client_id = s.client_id and cu.id = s.customer_id
             join clients cl on cl.id = d.client_id
             where d.status = 'failed' ${clientFilter("d.client_id", scope)}
               ${notHandled("email_failed", "d.client_id", sql`d.id::text`)}`;
}

/** Attempts whose gateway answer was lost or unusable. */
function paymentsUnknown(scope: Scope): SQL {
  return sql`select 'payment_unknown' as kind, a.id::text as key, a.client_id, cl.client_name,
                    a.customer_id, ${customerName} || ' (' || cu.customer_no || ')' as label,
                    case a.method when 'ach' then 'Bank account' else 'Card' end || ' ending ' || right(a.mask, 4)
                      || ', ' || case a.source when 'page' then 'paid on the pay page' when 'staff' then 'entered by staff'
                                               when 'bulk' then 'Process CC' else 'autopay' end as detail,
                    a.amount::text as amount, to_json(a.created_at) #>> '{}' as since
             from payment_attempts a
             join customers cu on cu.client_id = a.client_id and cu.id = a.customer_id
             join clients cl on cl.id = a.client_id
             where a.status = 'unknown' ${clientFilter("a.client_id", scope)}`;
}

/**
 * Unattended charges (autopay, Process CC) the gateway declined lately, unless the customer has
 * paid since or a person marked the decline handled.
 */
function paymentsDeclined(scope: Scope): SQL {
  return sql`select 'payment_declined' as kind, a.id::text as key, a.client_id, cl.client_name,
                    a.customer_id, ${customerName} || ' (' || cu.customer_no || ')' as label,
                    case a.source when 'autopay' then 'Autopay' else 'Process CC' end || ' charge of '
                      || case a.method when 'ach' then 'the bank account' else 'the card' end
                      || ' ending ' || right(a.mask, 4) || ' declined'
                      || case when a.message <> '' and a.message <> 'Declined' then ': ' || left(a.message, 200) else '' end as detail,
                    a.amount::text as amount, to_json(a.created_at) #>> '{}' as since
             from payment_attempts a
             join customers cu on cu.client_id = a.client_id and cu.id = a.customer_id
             join clients cl on cl.id = a.client_id
             where a.status = 'declined' and a.kind = 'sale' and a.source in ('autopay', 'bulk')
               and a.created_at >= ${scope.now.toISOString()}::timestamptz - make_interval(days => ${RECENT_DAYS}::int)
               ${clientFilter("a.client_id", scope)}
               and not exists (select 1 from payment_attempts later
                               where later.client_id = a.client_id and later.customer_id = a.customer_id
                                 and later.kind = 'sale' and later.status = 'approved' and later.created_at > a.created_at)
               ${notHandled("payment_declined", "a.client_id", sql`a.id::text`)}`;
}

/** Payments the bank returned or the cardholder charged back lately, not marked handled. */
function paymentsReturned(scope: Scope): SQL {
  return sql`select 'payment_returned' as kind, e.id::text as key, e.client_id, cl.client_name,
                    e.customer_id,
                    coalesce(${customerName} || ' (' || cu.customer_no || ')', 'No customer of ours') as label,
                    case e.kind when 'returned' then 'Returned' else 'Charged back' end
                      || case when e.code <> '' then ' (' || e.code || ')' else '' end
                      || case when e.reason <> '' then ': ' || left(e.reason, 200) else '' end as detail,
                    e.amount::text as amount, e.event_date::text as since
             from gateway_events e
             join clients cl on cl.id = e.client_id
             left join customers cu on cu.client_id = e.client_id and cu.id = e.customer_id
             where e.kind in ('returned', 'charged_back')
               and e.event_date >= ${scope.today}::date - ${RECENT_DAYS}::int
               ${clientFilter("e.client_id", scope)}
               ${notHandled("payment_returned", "e.client_id", sql`e.id::text`)}`;
}

/** The select of each kind the queue lists from the database. */
export const WORK_ITEM_QUERIES: Partial<Record<WorkItemKind, (scope: Scope) => SQL>> = {
  run_failed: runsFailed,
  pool_not_downloaded: poolsNotDownloaded,
  statement_undeliverable: statementsUndeliverable,
  email_failed: emailsFailed,
  payment_unknown: paymentsUnknown,
  payment_declined: paymentsDeclined,
  payment_returned: paymentsReturned,
};

export type { Scope as WorkQueueScope };
