import { cachedCount } from "../../db/list-counts.js";
import { and, asc, count, desc, eq, getTableColumns, gte, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import {
  addAmounts,
  ageBalance,
  parseOrdering,
  resolvePaging,
  subtractAmounts,
  type CustomerListRow,
  type ListQuery,
  type Page,
} from "@cyclebill/domain";
import { preparedRows } from "../../db/prepared-rows.js";
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

function filterConditions(tenant: TenantContext, filters: CustomerListFilters): SQL[] {
  if (filters.includeOnlyArchived && filters.includeOnlyPendingArchived)
    throw nonFieldError(FILTERS_EXCLUSIVE_MESSAGE);
  const conditions: SQL[] = [eq(customers.clientId, tenant.clientId)];
  if (filters.includeOnlyArchived) conditions.push(eq(customers.deleted, true));
  else conditions.push(eq(customers.deleted, false));
  if (filters.includeOnlyPendingArchived) conditions.push(isNotNull(customers.deleteFlag));
  if (filters.startDate) conditions.push(gte(customers.openDate, filters.startDate));
  if (filters.endDate) conditions.push(lte(customers.openDate, filters.endDate));
  const text = filters.query?.trim().toLowerCase();
  // One lower-cased column holds number, names, email, address and phone; a trigram index serves it.
  if (text) conditions.push(sql`${customers.searchText} like ${`%${escapeLike(text)}%`}`);
  return conditions;
}

/** A page row: the customer's columns (database names) and what the list shows beside them. */
type PageRow = Record<string, unknown> & {
  contract_total: string | null;
  aged_balance: string;
  band0: string;
  band30: string;
  band60: string;
  band90: string;
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

/** The first day of the age band `days` old as of `asOf` (YYYY-MM-DD). */
function daysBefore(asOf: string, days: number): string {
  return new Date(Date.parse(`${asOf}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** The latest entry of one code type (not voided): its amount or its service date. */
function latest(column: "amount" | "service_date", codeType: "charge" | "payment" | "adjust"): SQL {
  return sql`(array_agg(t.${sql.raw(column)}::text order by t.service_date desc, t.id desc)
              filter (where k.code_type = ${codeType} and not t.voided))[1]`;
}

/**
 * The page in one statement (a named prepared statement on PostgreSQL): the customers of the page,
 * and for each, from its own ledger entries, what ageing needs as of the day (the ledger's balance
 * then and the debits of the last 120 days by age band, as ageCustomerBalances reads them with the
 * "ledger" scope), its latest charge, payment and credit, and its recurring charges' total.
 */
function pageQuery(
  db: Database,
  where: SQL | undefined,
  orderBy: SQL[],
  outerOrderBy: SQL[],
  asOf: string,
  paging: { limit: number; offset: number },
): SQL {
  const page = db
    .select()
    .from(customers)
    .where(where)
    .orderBy(...orderBy, asc(customers.id))
    .limit(paging.limit)
    .offset(paging.offset);
  const from = daysBefore(asOf, 119);
  const debit = (range: SQL) =>
    sql`coalesce(sum(t.ledger_amount) filter (where t.ledger_amount > 0 and ${range}), 0)::text`;
  return sql`
    select p.*,
           (select sum(r.amount)::text from recurring_charges r
            where r.client_id = p.client_id and r.customer_id = p.id) as contract_total,
           e.*
    from (${page}) p
    left join lateral (
      select (p.total_balance - coalesce(sum(t.ledger_amount) filter (where t.service_date > ${asOf}::date), 0))::text as aged_balance,
             ${debit(sql`t.service_date <= ${asOf}::date and t.service_date > ${asOf}::date - 30`)} as band0,
             ${debit(sql`t.service_date <= ${asOf}::date - 30 and t.service_date > ${asOf}::date - 60`)} as band30,
             ${debit(sql`t.service_date <= ${asOf}::date - 60 and t.service_date > ${asOf}::date - 90`)} as band60,
             ${debit(sql`t.service_date <= ${asOf}::date - 90 and t.service_date >= ${from}::date`)} as band90,
             ${latest("amount", "charge")} as last_charge_amount,
             ${latest("service_date", "charge")} as last_charge_date,
             ${latest("amount", "payment")} as last_payment_amount,
             ${latest("service_date", "payment")} as last_payment_date,
             ${latest("amount", "adjust")} as last_credit_amount,
             ${latest("service_date", "adjust")} as last_credit_date
      from transactions t join codes k on k.client_id = t.client_id and k.id = t.code_id
      where t.client_id = p.client_id and t.customer_id = p.id
    ) e on true
    order by ${sql.join([...outerOrderBy, sql`p.id asc`], sql`, `)}`;
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
  const where = and(...filterConditions(tenant, filters));
  const paging = resolvePaging(query);
  const terms = ordering.terms.map((term) => ({
    column: customerOrderingFields[term.field as keyof typeof customerOrderingFields],
    descending: term.descending,
  }));
  const orderBy = terms.map(({ column, descending }) => (descending ? desc(column) : asc(column)));
  // The same order over the page's own columns.
  const outerOrderBy = terms.map(
    ({ column, descending }) => sql`p.${sql.identifier(column.name)} ${sql.raw(descending ? "desc" : "asc")}`,
  );
  const asOf = filters.as_of ?? businessToday();
  const [rows, total] = await Promise.all([
    preparedRows<PageRow>(db, "customer_list", pageQuery(db, where, orderBy, outerOrderBy, asOf, paging)),
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
    // One debit per band, dated at the band's newest day (as ageCustomerBalances ages them).
    const aged = ageBalance(
      raw.aged_balance,
      [
        { date: asOf, amount: raw.band0 },
        { date: daysBefore(asOf, 30), amount: raw.band30 },
        { date: daysBefore(asOf, 60), amount: raw.band60 },
        { date: daysBefore(asOf, 90), amount: raw.band90 },
      ],
      asOf,
    );
    // As of a past day the balance is the ledger's then; today it is the kept balance.
    const balance = filters.as_of ? raw.aged_balance : base.total_balance;
    return {
      ...base,
      total_balance: balance,
      balance,
      current_balance: aged.current,
      overdue_30_days: aged.days30,
      overdue_60_days: aged.days60,
      overdue_90_days: aged.days90,
      overdue_over_90_days: aged.over90,
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
