import { cachedCount } from "../../db/list-counts.js";
import { and, asc, count, desc, eq, gte, isNotNull, lte, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import {
  archiveState,
  customerActions,
  customerListRowSchema,
  parseOrdering,
  resolvePaging,
  toDeleteFlag,
  type CustomerListRow,
  type ListQuery,
  type Page,
} from "@cyclebill/domain";
import { z } from "zod";
import { dbInt } from "../../db/row-schemas.js";
import { inlineCount, namesPage, preparedStatementRows } from "../../db/prepared-rows.js";
import { ageingBucketsSql } from "../summary/ageing.sql.js";
import type { Database } from "../../db/database.js";
import { customers } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError, nonFieldError } from "../../http/errors.js";
import { businessToday } from "../../clock.js";
import { clientCounts } from "../summary/client-counts.js";

export type CustomerListFilters = {
  query?: string;
  startDate?: string;
  endDate?: string;
  includeOnlyArchived?: boolean;
  includeOnlyPendingArchived?: boolean;
  /** Age (and give the balance) as of this day from the ledger; today when absent. */
  as_of?: string;
};

export const customerOrderingFields = {
  id: customers.id,
  customer_no: customers.customerNo,
  customer_name: customers.customerName,
  first_name: customers.firstName,
  last_name: customers.lastName,
  company_name: customers.companyName,
  city: customers.city,
  zip: customers.zip,
  email: customers.email,
  open_date: customers.openDate,
  last_pay_date: customers.lastPayDate,
  balance: customers.totalBalance,
  total_balance: customers.totalBalance,
  previous_balance: customers.previousBalance,
  mtd_charges: customers.mtdCharges,
  mtd_payments: customers.mtdPayments,
  pull_flag: customers.pullFlag,
} as const;

export const FILTERS_EXCLUSIVE_MESSAGE =
  "Archived-only and pending-archive-only filters cannot be used together.";

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (match) => `\\${match}`);
}

/** A value of the query, or (for a statement kept and reused) a placeholder for it. */
type Bind = <T>(name: string, value: T) => T | SQLWrapper;
const byValue: Bind = (_name, value) => value;
const byPlaceholder: Bind = (name) => sql.placeholder(name);

function filterConditions(clientId: number, filters: CustomerListFilters, bind: Bind = byValue): SQL[] {
  if (filters.includeOnlyArchived && filters.includeOnlyPendingArchived)
    throw nonFieldError(FILTERS_EXCLUSIVE_MESSAGE);
  const conditions: SQL[] = [eq(customers.clientId, bind("clientId", clientId))];
  if (filters.includeOnlyArchived) conditions.push(eq(customers.deleted, true));
  else conditions.push(eq(customers.deleted, false));
  if (filters.includeOnlyPendingArchived) conditions.push(isNotNull(customers.deleteFlag));
  if (filters.startDate) conditions.push(gte(customers.openDate, bind("startDate", filters.startDate)));
  if (filters.endDate) conditions.push(lte(customers.openDate, bind("endDate", filters.endDate)));
  const pattern = searchPattern(filters);
  // One lower-cased column holds number, names, email, address and phone; a trigram index serves it.
  if (pattern) conditions.push(sql`${customers.searchText} like ${bind("pattern", pattern)}`);
  return conditions;
}

function searchPattern(filters: CustomerListFilters): string | undefined {
  const text = filters.query?.trim().toLowerCase();
  return text ? `%${escapeLike(text)}%` : undefined;
}

/** A page row as the database answers it: the list's row but for the two figures set in listCustomers. */
/** A page row as the query returns it: the list row, with bigint ids as the driver reads them. */
const pageRowSchema = customerListRowSchema.extend({
  id: dbInt,
  client: dbInt,
  client_id: dbInt,
  delete_flag: z.string().nullable(),
  // Worked out below from deleted, delete_flag and the balance.
  archive_state: z.null(),
  actions: z.null(),
  /** The kept balance (balance may be as of a past day): what the actions go by. */
  kept_balance: z.string(),
});

/**
 * The list row's fields (the shared schema's, in its order) from the page's columns: a field named
 * as its column reads it; these are worked out. `balance` is the kept balance, or as of a past day
 * the ledger's then; the ageing is as of the day.
 */
function computedColumns(balance: SQL): Partial<Record<keyof CustomerListRow, SQL>> {
  return {
    client: sql`p.client_id`,
    // Set from deleted and delete_flag by the domain's rule (listCustomers).
    archive_state: sql`null::text`,
    actions: sql`null::text`,
    total_balance: balance,
    balance,
    overdue_30_days: sql`u.days30::numeric(14,2)::text`,
    overdue_60_days: sql`u.days60::numeric(14,2)::text`,
    overdue_90_days: sql`u.days90::numeric(14,2)::text`,
    overdue_over_90_days: sql`u.over90::numeric(14,2)::text`,
    current_balance: sql`u.current::numeric(14,2)::text`,
    // toISOString's form: milliseconds, UTC.
    created_at: sql`to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    current_charges: sql`p.mtd_charges`,
    // Sums of two-place amounts are exact: no rounding is involved.
    current_payments_credits: sql`(p.mtd_payments + p.mtd_cr_adj)::numeric(14,2)::text`,
    contract_balance: sql`coalesce(r.contract_total, '0.00')`,
    adjusted_total_balance: sql`(p.previous_balance + p.mtd_charges + p.mtd_db_adj - p.mtd_payments - p.mtd_cr_adj)::numeric(14,2)::text`,
    mtdCharges: sql`p.mtd_charges`,
    mtdCRAdjust: sql`p.mtd_cr_adj`,
    mtdDebitAdjust: sql`p.mtd_db_adj`,
    lastChargeAmount: sql`e.last_charge_amount`,
    lastChargeDate: sql`e.last_charge_date`,
    lastPaymentAmount: sql`e.last_payment_amount`,
    lastPaymentDate: sql`e.last_payment_date`,
    lastCreditAmount: sql`e.last_credit_amount`,
    lastCreditDate: sql`e.last_credit_date`,
  };
}

/** The page's rows under the API's names, ready to send: no copy per row. */
function apiColumns(balance: SQL): SQL {
  const computed = computedColumns(balance);
  return sql.join(
    [
      ...(Object.keys(customerListRowSchema.shape) as (keyof CustomerListRow)[]).map(
        (name) => sql`${computed[name] ?? sql.raw(`p.${name}`)} as ${sql.identifier(name)}`,
      ),
      sql`p.total_balance::text as kept_balance`,
    ],
    sql`, `,
  );
}

/** The latest entry of one code type (not voided): its amount or its service date. */
// The latest entry of the kind itself: a voided one is left out, and so are voids and reversals,
// which share its code and amount but undo it (a charge's void is no charge of its own).
function latest(column: "amount" | "service_date", codeType: "charge" | "payment" | "adjust"): SQL {
  return sql`(array_agg(t.${sql.raw(column)}::text order by t.service_date desc, t.id desc)
              filter (where k.code_type = ${sql.raw(`'${codeType}'`)} and not t.voided
                and t.voids_transaction_id is null and t.reverses_transaction_id is null))[1]`;
}

type PageOrder = {
  column: (typeof customerOrderingFields)[keyof typeof customerOrderingFields];
  descending: boolean;
};

/**
 * The page in one statement: the customers of the page and, for each, from its own ledger entries,
 * its ageing as of the day, its latest charge, payment and credit, and its recurring charges' total.
 * Ageing is the domain's one rule (ageBalance: first in, first out) in its one SQL form
 * (ageingBucketsSql), as ageClientTotals sums it for a whole client: the balance as of the day from
 * the ledger and the debits of the last 120 days summed by age band. As of a past day entries dated
 * later are left out; now (no as_of) everything posted counts, a later date as current (LaterEntries).
 */
function pageQuery(
  db: Database,
  where: SQL | undefined,
  order: PageOrder[],
  paging: { limit: number; offset: number },
  asOfGiven: boolean,
): SQL {
  const page = db
    .select()
    .from(customers)
    .where(where)
    .orderBy(
      ...order.map(({ column, descending }) => (descending ? desc(column) : asc(column))),
      asc(customers.id),
    )
    .limit(inlineCount(paging.limit))
    .offset(inlineCount(paging.offset));
  // The same order over the page's own columns.
  const outerOrder = order.map(
    ({ column, descending }) => sql`p.${sql.identifier(column.name)} ${sql.raw(descending ? "desc" : "asc")}`,
  );
  const asOf = sql`${sql.placeholder("asOf")}::date`;
  const debit = (range: SQL) =>
    sql`coalesce(sum(t.ledger_amount) filter (where t.ledger_amount > 0 and ${range}), 0)`;
  const aged = ageingBucketsSql(sql`e.balance`, [sql`e.b0`, sql`e.b1`, sql`e.b2`, sql`e.b3`]);
  return sql`
    select ${apiColumns(asOfGiven ? sql`e.balance::text` : sql`p.total_balance`)}
    from (${page}) p
    cross join lateral (
      select sum(r.amount)::text as contract_total from recurring_charges r
      where r.client_id = p.client_id and r.customer_id = p.id
    ) r
    cross join lateral (
      select ${asOfGiven ? sql`p.total_balance - coalesce(sum(t.ledger_amount) filter (where t.service_date > ${asOf}), 0)` : sql`p.total_balance`} as balance,
             ${debit(asOfGiven ? sql`t.service_date <= ${asOf} and t.service_date > ${asOf} - 30` : sql`t.service_date > ${asOf} - 30`)} as b0,
             ${debit(sql`t.service_date <= ${asOf} - 30 and t.service_date > ${asOf} - 60`)} as b1,
             ${debit(sql`t.service_date <= ${asOf} - 60 and t.service_date > ${asOf} - 90`)} as b2,
             ${debit(sql`t.service_date <= ${asOf} - 90 and t.service_date >= ${asOf} - 119`)} as b3,
             ${latest("amount", "charge")} as last_charge_amount,
             ${latest("service_date", "charge")} as last_charge_date,
             ${latest("amount", "payment")} as last_payment_amount,
             ${latest("service_date", "payment")} as last_payment_date,
             ${latest("amount", "adjust")} as last_credit_amount,
             ${latest("service_date", "adjust")} as last_credit_date
      from transactions t join codes k on k.client_id = t.client_id and k.id = t.code_id
      where t.client_id = p.client_id and t.customer_id = p.id
    ) e
    cross join lateral (
      select ${aged.current} as current, ${aged.days30} as days30, ${aged.days60} as days60,
             ${aged.days90} as days90, ${aged.over90} as over90
    ) u
    order by ${sql.join([...outerOrder, sql`p.id asc`], sql`, `)}`;
}

/**
 * How many customers the filters select: with no filter but archived or not, from the client's kept
 * counts (client-counts.ts), exact at a snapshot after the request began; else counted, and the count
 * kept a moment (list-counts.ts).
 */
async function countCustomers(db: Database, clientId: number, filters: CustomerListFilters): Promise<number> {
  const { query, startDate, endDate, includeOnlyArchived, includeOnlyPendingArchived } = filters;
  if (!searchPattern({ query }) && !startDate && !endDate && !includeOnlyPendingArchived) {
    const counts = await clientCounts(db, clientId);
    return includeOnlyArchived ? counts.customers.size - counts.activeCustomers : counts.activeCustomers;
  }
  return cachedCount(
    db,
    clientId,
    `customers ${JSON.stringify({ ...filters, as_of: undefined })}`,
    async () => {
      const [row] = await db
        .select({ total: count() })
        .from(customers)
        .where(and(...filterConditions(clientId, filters)));
      return row?.total ?? 0;
    },
  );
}

/** The Manage Customers list: filtered, sorted and paged in the database; ledger columns for the page. */
export async function listCustomers(
  db: Database,
  tenant: TenantContext,
  query: ListQuery,
  filters: CustomerListFilters,
): Promise<Page<CustomerListRow>> {
  const ordering = parseOrdering(query.ordering ?? "customer_no", Object.keys(customerOrderingFields));
  if (!ordering.ok) {
    throw fieldError(
      "ordering",
      `Unknown ordering field: ${ordering.unknown.join(", ")}. Allowed: ${Object.keys(customerOrderingFields).join(", ")}.`,
    );
  }
  const paging = resolvePaging(query);
  const order = ordering.terms.map((term) => ({
    column: customerOrderingFields[term.field as keyof typeof customerOrderingFields],
    descending: term.descending,
  }));
  const asOf = filters.as_of ?? businessToday();
  const values: Record<string, unknown> = {
    clientId: tenant.clientId,
    startDate: filters.startDate,
    endDate: filters.endDate,
    pattern: searchPattern(filters),
    asOf,
  };
  // Statements differ only by which filters are given, the ordering and the page: each is built once.
  const shape = JSON.stringify([
    ordering.terms,
    paging.limit,
    paging.offset,
    Boolean(filters.startDate),
    Boolean(filters.endDate),
    Boolean(values.pattern),
    Boolean(filters.includeOnlyArchived),
    Boolean(filters.includeOnlyPendingArchived),
    Boolean(filters.as_of),
  ]);
  const [rows, total] = await Promise.all([
    preparedStatementRows(
      db,
      `customer_list ${shape}`,
      () =>
        pageQuery(
          db,
          and(...filterConditions(tenant.clientId, filters, byPlaceholder)),
          order,
          paging,
          Boolean(filters.as_of),
        ),
      values,
      // A named statement per common shape only (see preparedStatementRows): one sort field, first pages.
      pageRowSchema,
      ordering.terms.length <= 1 && namesPage(paging),
    ),
    countCustomers(db, tenant.clientId, filters),
  ]);
  const results: CustomerListRow[] = rows.map(({ kept_balance, ...row }) => ({
    ...row,
    archive_state: archiveState({ deleted: row.deleted, deleteFlag: row.delete_flag }),
    actions: customerActions({ deleted: row.deleted, deleteFlag: row.delete_flag, balance: kept_balance }),
    delete_flag: toDeleteFlag(row.delete_flag),
  }));
  return { count: total, results };
}
