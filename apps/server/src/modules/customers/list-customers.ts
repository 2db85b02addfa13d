import { cachedCount } from "../../db/list-counts.js";
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  isNotNull,
  lte,
  sql,
  type SQL,
  type SQLWrapper,
} from "drizzle-orm";
import {
  addAmounts,
  parseOrdering,
  resolvePaging,
  subtractAmounts,
  type CustomerListRow,
  type ListQuery,
  type Page,
} from "@cyclebill/domain";
import { inlineCount, namesPage, preparedStatementRows } from "../../db/prepared-rows.js";
import type { Database } from "../../db/database.js";
import { customers } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError, nonFieldError } from "../../http/errors.js";
import { customerToApi, type CustomerRow } from "./customer-output.js";
import { businessToday } from "../../clock.js";

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

/** A page row: the customer's columns (database names) and what the list shows beside them. */
type PageRow = Record<string, unknown> & {
  contract_total: string | null;
  aged_balance: string;
  aged_current: string;
  aged_days30: string;
  aged_days60: string;
  aged_days90: string;
  aged_over90: string;
  last_charge_amount: string | null;
  last_charge_date: string | null;
  last_payment_amount: string | null;
  last_payment_date: string | null;
  last_credit_amount: string | null;
  last_credit_date: string | null;
};

const customerColumns = Object.entries(getTableColumns(customers));

/** A page row's customer columns as drizzle would have read them. */
function customerRowOf(raw: PageRow): CustomerRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of customerColumns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as CustomerRow;
}

/** The latest entry of one code type (not voided): its amount or its service date. */
function latest(column: "amount" | "service_date", codeType: "charge" | "payment" | "adjust"): SQL {
  return sql`(array_agg(t.${sql.raw(column)}::text order by t.service_date desc, t.id desc)
              filter (where k.code_type = ${sql.raw(`'${codeType}'`)} and not t.voided))[1]`;
}

type PageOrder = {
  column: (typeof customerOrderingFields)[keyof typeof customerOrderingFields];
  descending: boolean;
};

/**
 * The page in one statement: the customers of the page and, for each, from its own ledger entries,
 * its ageing as of the day, its latest charge, payment and credit, and its recurring charges' total.
 * Ageing is the domain's one rule (ageBalance: first in, first out) in SQL, as ageClientTotals sums it
 * for a whole client: the balance as of the day from the ledger (entries dated later left out), the
 * debits of the last 120 days summed by age band (0-29, 30-59, 60-89, 90-119 days); for a positive
 * balance B and bands b0..b3, owed under 30 days is min(B, b0), under 60 days min(B, b0 + b1), and so
 * on, the rest over 90; a credit balance is all current.
 */
function pageQuery(
  db: Database,
  where: SQL | undefined,
  order: PageOrder[],
  paging: { limit: number; offset: number },
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
  const owed = (bands: SQL) =>
    sql`case when e.balance <= 0 then e.balance else least(e.balance, ${bands}) end`;
  return sql`
    select p.*,
           (select sum(r.amount)::text from recurring_charges r
            where r.client_id = p.client_id and r.customer_id = p.id) as contract_total,
           e.balance::text as aged_balance,
           u.u30::numeric(14,2)::text as aged_current,
           (u.u60 - u.u30)::numeric(14,2)::text as aged_days30,
           (u.u90 - u.u60)::numeric(14,2)::text as aged_days60,
           (u.u120 - u.u90)::numeric(14,2)::text as aged_days90,
           (e.balance - u.u120)::numeric(14,2)::text as aged_over90,
           e.last_charge_amount, e.last_charge_date, e.last_payment_amount, e.last_payment_date,
           e.last_credit_amount, e.last_credit_date
    from (${page}) p
    cross join lateral (
      select p.total_balance - coalesce(sum(t.ledger_amount) filter (where t.service_date > ${asOf}), 0) as balance,
             ${debit(sql`t.service_date <= ${asOf} and t.service_date > ${asOf} - 30`)} as b0,
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
      select ${owed(sql`e.b0`)} as u30, ${owed(sql`e.b0 + e.b1`)} as u60,
             ${owed(sql`e.b0 + e.b1 + e.b2`)} as u90, ${owed(sql`e.b0 + e.b1 + e.b2 + e.b3`)} as u120
    ) u
    order by ${sql.join([...outerOrder, sql`p.id asc`], sql`, `)}`;
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
  ]);
  const where = and(...filterConditions(tenant.clientId, filters));
  const [rows, total] = await Promise.all([
    preparedStatementRows<PageRow>(
      db,
      `customer_list ${shape}`,
      () => pageQuery(db, and(...filterConditions(tenant.clientId, filters, byPlaceholder)), order, paging),
      values,
      // A named statement per common shape only (see preparedStatementRows): one sort field, first pages.
      ordering.terms.length <= 1 && namesPage(paging),
    ),
    cachedCount(
      db,
      tenant.clientId,
      `customers ${JSON.stringify({ ...filters, as_of: undefined })}`,
      async () => {
        const [row] = await db.select({ total: count() }).from(customers).where(where);
        return row?.total ?? 0;
      },
    ),
  ]);
  const results = rows.map((raw): CustomerListRow => {
    const row = customerRowOf(raw);
    const base = customerToApi(row);
    // As of a past day the balance is the ledger's then; today it is the kept balance.
    const balance = filters.as_of ? raw.aged_balance : base.total_balance;
    return {
      ...base,
      total_balance: balance,
      balance,
      current_balance: raw.aged_current,
      overdue_30_days: raw.aged_days30,
      overdue_60_days: raw.aged_days60,
      overdue_90_days: raw.aged_days90,
      overdue_over_90_days: raw.aged_over90,
      current_charges: row.mtdCharges,
      current_payments_credits: addAmounts(row.mtdPayments, row.mtdCrAdj),
      contract_balance: raw.contract_total ?? "0.00",
      adjusted_total_balance: subtractAmounts(
        addAmounts(addAmounts(row.previousBalance, row.mtdCharges), row.mtdDbAdj),
        addAmounts(row.mtdPayments, row.mtdCrAdj),
      ),
      mtdCharges: row.mtdCharges,
      mtdCRAdjust: row.mtdCrAdj,
      mtdDebitAdjust: row.mtdDbAdj,
      lastChargeAmount: raw.last_charge_amount,
      lastChargeDate: raw.last_charge_date,
      lastPaymentAmount: raw.last_payment_amount,
      lastPaymentDate: raw.last_payment_date,
      lastCreditAmount: raw.last_credit_amount,
      lastCreditDate: raw.last_credit_date,
    };
  });
  return { count: total, results };
}
