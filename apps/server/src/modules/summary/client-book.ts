import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { ageCentsByBands, amountToCents, monthEnd, monthStart } from "@cyclebill/domain";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbBool, dbDate, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { refreshSlots, sharedRefresh } from "../../db/shared-refresh.js";
import { ageingBandsQuery, bandRowSchema } from "./customer-ageing.queries.js";

/**
 * A per-process book of one client's summary figures as of today, customer by customer, so the
 * home cards sum a book instead of ageing 50,000 customers on every request after a posting.
 *
 * Every change to a customer's ledger or ageing inputs writes a customer_changes row in the same
 * database transaction (the ledger module, customer adds and archives). A refresh is ONE statement
 * (one snapshot): it takes the snapshot, picks the customers whose change rows the book's previous
 * snapshot could not see (pg_visible_in_snapshot against that snapshot, not an id order: a
 * transaction that began earlier may commit later, and is still caught), and recomputes just
 * those customers from the ledger in the same snapshot. So a posting committed
 * by any process before a request starts is in that request's figures, and the figures equal a
 * full computation at that snapshot. The book is rebuilt in full on a new day, when the client's
 * codes change (a code's type decides a figure), after MAX_AGE (change rows are pruned after a
 * day), or when more customers changed than a partial refresh is worth.
 */
const MAX_AGE_MS = 6 * 60 * 60 * 1000;
const MAX_PARTIAL = 2_000;
/** Books kept per process; the least recently used goes first. */
const MAX_CLIENTS = 256;

/** Amounts kept per customer, in cents, in this order. */
export const BOOK_AMOUNTS = [
  "balance",
  "current",
  "days30",
  "days60",
  "days90",
  "over90",
  "charges",
  "payments",
  "debits",
  "credits",
] as const;
export type BookAmount = (typeof BOOK_AMOUNTS)[number];

type CustomerFigures = {
  active: boolean;
  /** Every ledger entry posted (the book is now's: entries dated after its day count too). */
  entries: number;
  /** Cents, in BOOK_AMOUNTS order. */
  amounts: number[];
};

export type ClientBook = {
  clientId: number;
  date: string;
  snapshot: string;
  codes: string;
  builtAt: number;
  customers: Map<number, CustomerFigures>;
  activeCustomers: number;
  entries: number;
  totals: Record<BookAmount, bigint>;
  lastPayment: string | null;
};

/** Cents back to a 2-place decimal string. */
export function amountOfCents(value: bigint): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const text = `${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, "0")}`;
  return negative ? `-${text}` : text;
}

/** The book statement's head: on every row, the same. */
const bookHeadSchema = z.object({
  snapshot: dbText,
  codes: dbText,
  /** Comma-separated ids of the customers changed since the previous snapshot (a refresh). */
  changed: dbText.nullable(),
  changes: dbInt,
  last_payment: dbDate.nullable(),
});
/** A customer's figures beside the head (every one of them null on the one row without a customer). */
const bookFiguresSchema = bandRowSchema.omit({ customer_id: true }).extend({
  id: dbInt,
  active: dbBool,
  entries: dbInt,
  charges: dbDecimal,
  payments: dbDecimal,
  debits: dbDecimal,
  credits: dbDecimal,
});
const bookRowSchema = z.union([
  bookHeadSchema.extend(bookFiguresSchema.shape),
  bookHeadSchema.extend({ id: z.null() }),
]);
type BookFigures = z.output<typeof bookFiguresSchema>;
const lookRowSchema = bookHeadSchema.pick({ snapshot: true, codes: true, changes: true });

/** The customers whose change rows the snapshot `since` could not see (none for a build). */
export function changedSince(clientId: number | SQLWrapper, since: string | SQLWrapper | null): SQL {
  if (since === null) return sql`select null::bigint as id where false`;
  return sql`select distinct customer_id as id from customer_changes
             where client_id = ${clientId}
               and txid >= (pg_snapshot_xmin(${since}::pg_snapshot)::text)::bigint
               and not pg_visible_in_snapshot((txid::text)::xid8, ${since}::pg_snapshot)`;
}

/** Changes with any write to the client's codes (a code's type decides which figure its entries add to). */
function codesStamp(clientId: number): SQL {
  return sql`(select count(*) || '.' || coalesce(bit_xor(hashtextextended(xmin::text, id)), 0)
              from codes where client_id = ${clientId})`;
}

/**
 * The book is now's figures (summarizeClient): everything posted, later dates included; the month's
 * activity is the calendar month of `date`, through its last day.
 * ONE statement, so one snapshot: the snapshot itself, the client's codes stamp, and the figures of
 * every customer (a build) or of those changed since `since` (a refresh: the customers whose change
 * rows that snapshot could not see, at most MAX_PARTIAL of them). Without a customer, one row.
 */
function bookStatement(clientId: number, date: string, since: string | null): SQL {
  const only = (column: string) =>
    since === null ? sql`` : sql`and ${sql.raw(column)} in (select id from picked)`;
  return sql`
    with changed as (${changedSince(clientId, since)}),
    head as (
      select pg_current_snapshot()::text as snapshot, ${codesStamp(clientId)} as codes,
             (select string_agg(id::text, ',') from changed) as changed,
             (select count(*) from changed) as changes,
             -- The client's last payment: one index probe per payment code.
             (select max(last)::text from codes k cross join lateral (
                select max(t.service_date) as last from transactions t
                where t.client_id = ${clientId} and t.code_id = k.id) p
              where k.client_id = ${clientId} and k.code_type = 'payment') as last_payment
    ),
    picked as (select id from changed where (select changes from head) <= ${MAX_PARTIAL}),
    month as (
      select t.customer_id,
             sum(t.ledger_amount) filter (where k.code_type = 'charge') as charges,
             sum(t.ledger_amount) filter (where k.code_type = 'payment') as payments,
             sum(t.ledger_amount) filter (where k.code_type = 'debit') as debits,
             sum(t.ledger_amount) filter (where k.code_type in ('adjust', 'percent_discount', 'flat_discount')) as credits
      from transactions t join codes k on k.client_id = t.client_id and k.id = t.code_id
      where t.client_id = ${clientId} and t.service_date >= ${monthStart(date)}::date
        and t.service_date <= ${monthEnd(date)}::date ${only("t.customer_id")}
      group by t.customer_id
    ),
    figures as (
      select c.id, not c.deleted as active, c.ledger_entries as entries,
             coalesce(m.charges, 0)::text as charges, coalesce(m.payments, 0)::text as payments,
             coalesce(m.debits, 0)::text as debits, coalesce(m.credits, 0)::text as credits
      from customers c
      left join month m on m.customer_id = c.id
      where c.client_id = ${clientId} ${only("c.id")}
    ),
    -- The one ageing rule's inputs (balances as of the day from the ledger), aged below by ageBalance.
    ageing as (${ageingBandsQuery(clientId, date, only, "current")})
    select h.snapshot, h.codes, h.changed, h.changes, h.last_payment, f.*,
           a.balance, a.band0, a.band30, a.band60, a.band90
    from head h
    left join figures f on true
    left join ageing a on a.customer_id = f.id`;
}

/**
 * One customer's figures, in cents (the domain's one parser, amountToCents): the ageing is the
 * domain's ageCentsByBands, ageBalance in closed form on one debit sum per age band (ageBalance on
 * decimal strings would take seconds for 50,000 customers).
 */
function figuresOf(row: BookFigures): CustomerFigures {
  const cents = amountToCents;
  const balance = cents(row.balance);
  const aged = ageCentsByBands(balance, [
    cents(row.band0),
    cents(row.band30),
    cents(row.band60),
    cents(row.band90),
  ]);
  const amounts: Record<BookAmount, number> = {
    balance,
    ...aged,
    charges: cents(row.charges),
    payments: cents(row.payments),
    debits: cents(row.debits),
    credits: cents(row.credits),
  };
  return {
    active: row.active,
    entries: row.entries,
    amounts: BOOK_AMOUNTS.map((name) => amounts[name]),
  };
}

function emptyTotals(): Record<BookAmount, bigint> {
  return Object.fromEntries(BOOK_AMOUNTS.map((name) => [name, 0n])) as Record<BookAmount, bigint>;
}

/** Adds (sign 1) or takes out (sign -1) one customer's figures from the book's totals. */
function tally(book: ClientBook, figures: CustomerFigures, sign: 1 | -1): void {
  if (figures.active) book.activeCustomers += sign;
  book.entries += sign * figures.entries;
  BOOK_AMOUNTS.forEach((name, index) => {
    book.totals[name] += BigInt(sign * (figures.amounts[index] ?? 0));
  });
}

async function buildBook(db: Database, clientId: number, date: string): Promise<ClientBook> {
  const rows = await queryRows(db, bookStatement(clientId, date, null), bookRowSchema);
  const [head] = rows;
  if (!head) throw new Error("the book statement answered no row");
  const customers = new Map<number, CustomerFigures>();
  for (const row of rows) if (row.id !== null) customers.set(row.id, figuresOf(row));
  const book: ClientBook = {
    clientId,
    date,
    snapshot: head.snapshot,
    codes: head.codes,
    builtAt: Date.now(),
    customers,
    activeCustomers: 0,
    entries: 0,
    totals: emptyTotals(),
    lastPayment: head.last_payment,
  };
  for (const figures of customers.values()) tally(book, figures, 1);
  return book;
}

async function refreshBook(
  db: Database,
  clientId: number,
  date: string,
  previous: ClientBook | undefined,
): Promise<ClientBook> {
  if (!previous || previous.date !== date || Date.now() - previous.builtAt >= MAX_AGE_MS)
    return buildBook(db, clientId, date);
  // A cheap look first (the figures statement takes milliseconds to plan): nothing changed since
  // the book's snapshot, so the book holds at this newer snapshot as it is.
  const [look] = await queryRows(
    db,
    sql`select pg_current_snapshot()::text as snapshot, ${codesStamp(clientId)} as codes,
               (select count(*) from (${changedSince(clientId, previous.snapshot)}) c) as changes`,
    lookRowSchema,
  );
  if (look && look.codes === previous.codes && look.changes === 0) {
    previous.snapshot = look.snapshot;
    return previous;
  }
  const rows = await queryRows(db, bookStatement(clientId, date, previous.snapshot), bookRowSchema);
  const [head] = rows;
  if (!head) throw new Error("the book statement answered no row");
  if (head.codes !== previous.codes || head.changes > MAX_PARTIAL) return buildBook(db, clientId, date);
  const changed = head.changed ? head.changed.split(",").map(Number) : [];
  if (changed.length > 0) {
    const fresh = new Map<number, CustomerFigures>();
    for (const row of rows) if (row.id !== null) fresh.set(row.id, figuresOf(row));
    for (const id of changed) {
      const before = previous.customers.get(id);
      if (before) tally(previous, before, -1);
      const after = fresh.get(id);
      if (after) {
        previous.customers.set(id, after);
        tally(previous, after, 1);
      } else previous.customers.delete(id);
    }
  }
  previous.lastPayment = head.last_payment;
  previous.snapshot = head.snapshot;
  return previous;
}

const books = refreshSlots<ClientBook>(MAX_CLIENTS);

/**
 * The client's book as of `date`, refreshed after this call began: one refresh at a time per
 * client; callers arriving while one runs share the next one (which starts after they arrived).
 */
export function clientBook(db: Database, clientId: number, date: string): Promise<ClientBook> {
  return sharedRefresh(books, db, clientId, (previous) => refreshBook(db, clientId, date, previous));
}
