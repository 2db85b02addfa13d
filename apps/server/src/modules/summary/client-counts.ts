import { sql } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { z } from "zod";
import { dbInt } from "../../db/row-schemas.js";
import { preparedStatementRows } from "../../db/prepared-rows.js";
import { refreshSlots, sharedRefresh } from "../../db/shared-refresh.js";
import { changedSince } from "./client-book.js";

/**
 * How many customers a client has (active and archived) and how many ledger entries, kept per
 * process customer by customer and brought up to date on each use, for the lists' unfiltered counts.
 *
 * Counting them afresh cost 15 ms (50,000 customers) and 16 ms (the customers' tallies summed for a
 * 1,000,000-entry ledger) on every list page after a posting. The ledger writer and the customer
 * module note every customer whose tallies or archived state change in customer_changes, in the
 * writing transaction; a refresh is ONE statement (one snapshot) that reads only the customers whose
 * change rows the previous snapshot could not see, as the client book does (client-book.ts). So the
 * counts equal a full count at a snapshot taken after the request began, whichever process wrote.
 * A customer inserted without a change row (a bulk load) shows as a new highest id the book does not
 * hold, and the book is read again in full.
 */
const MAX_PARTIAL = 2_000;
/** Change rows are pruned after a day (pruneCustomerChanges); a book is read again well before. */
const MAX_AGE_MS = 6 * 60 * 60 * 1000;
const MAX_CLIENTS = 256;

type Tally = { active: boolean; entries: number };

export type ClientCounts = {
  snapshot: string;
  builtAt: number;
  customers: Map<number, Tally>;
  activeCustomers: number;
  /** Every customer's ledger entries, whatever their dates: the whole ledger's length. */
  entries: number;
};

const countsRowSchema = z.object({
  snapshot: z.string(),
  last_customer: z.string().nullable(),
  changes: dbInt,
  id: dbInt.nullable(),
  active: z.boolean().nullable(),
  entries: dbInt.nullable(),
});
type CountsRow = z.output<typeof countsRowSchema>;

function countsStatement(full: boolean) {
  const clientId = sql.placeholder("clientId");
  const head = sql`select pg_current_snapshot()::text as snapshot,
                          (select max(id) from customers where client_id = ${clientId})::text as last_customer,
                          (select count(*) from changed) as changes`;
  const changed = full ? changedSince(clientId, null) : changedSince(clientId, sql.placeholder("since"));
  const picked = full ? sql`true` : sql`h.changes <= ${MAX_PARTIAL} and c.id in (select id from changed)`;
  return sql`
    with changed as (${changed}), head as (${head})
    select h.snapshot, h.last_customer, h.changes, c.id, not c.deleted as active, c.ledger_entries as entries
    from head h
    left join customers c on c.client_id = ${clientId} and ${picked}`;
}

function read(db: Database, clientId: number, since: string | null): Promise<CountsRow[]> {
  return since === null
    ? preparedStatementRows(
        db,
        "client_counts_full",
        () => countsStatement(true),
        { clientId },
        countsRowSchema,
      )
    : preparedStatementRows(
        db,
        "client_counts_since",
        () => countsStatement(false),
        { clientId, since },
        countsRowSchema,
      );
}

function apply(counts: ClientCounts, id: number, after: Tally | undefined): void {
  const before = counts.customers.get(id);
  if (before) {
    if (before.active) counts.activeCustomers -= 1;
    counts.entries -= before.entries;
  }
  if (after) {
    if (after.active) counts.activeCustomers += 1;
    counts.entries += after.entries;
    counts.customers.set(id, after);
  } else counts.customers.delete(id);
}

function tallyOf(row: CountsRow): Tally {
  return { active: row.active === true, entries: Number(row.entries ?? 0) };
}

async function build(db: Database, clientId: number): Promise<ClientCounts> {
  const rows = await read(db, clientId, null);
  const counts: ClientCounts = {
    snapshot: rows[0]?.snapshot ?? "",
    builtAt: Date.now(),
    customers: new Map(),
    activeCustomers: 0,
    entries: 0,
  };
  for (const row of rows) if (row.id !== null) apply(counts, Number(row.id), tallyOf(row));
  return counts;
}

async function refresh(
  db: Database,
  clientId: number,
  previous: ClientCounts | undefined,
): Promise<ClientCounts> {
  if (!previous || Date.now() - previous.builtAt >= MAX_AGE_MS) return build(db, clientId);
  const rows = await read(db, clientId, previous.snapshot);
  const [head] = rows;
  if (!head || Number(head.changes) > MAX_PARTIAL) return build(db, clientId);
  for (const row of rows) if (row.id !== null) apply(previous, Number(row.id), tallyOf(row));
  // A customer added without a change row: read the client again in full.
  if (head.last_customer !== null && !previous.customers.has(Number(head.last_customer)))
    return build(db, clientId);
  previous.snapshot = head.snapshot;
  return previous;
}

const kept = refreshSlots<ClientCounts>(MAX_CLIENTS);

/** The client's counts at a snapshot taken after this call began. */
export function clientCounts(db: Database, clientId: number): Promise<ClientCounts> {
  return sharedRefresh(kept, db, clientId, (previous) => refresh(db, clientId, previous));
}
