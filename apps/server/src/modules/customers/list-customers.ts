import { cachedCount } from "../../db/list-counts.js";
import { and, asc, count, desc, eq, gte, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import {
  addAmounts,
  parseOrdering,
  resolvePaging,
  subtractAmounts,
  type CustomerListRow,
  type ListQuery,
  type Page,
} from "@cyclebill/domain";
import { queryRows } from "../../db/query-rows.js";
import type { Database } from "../../db/database.js";
import { customers } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError, nonFieldError } from "../../http/errors.js";
import { ageCustomerBalances } from "../summary/customer-ageing.queries.js";
import { customerToApi } from "./customer-output.js";
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

type LastEntry = {
  customer_id: number | string;
  kind: "charge" | "payment" | "adjust";
  amount: string;
  service_date: string;
};

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
  const { limit, offset } = resolvePaging(query);
  const orderBy = ordering.terms.map((term) => {
    const column = customerOrderingFields[term.field as keyof typeof customerOrderingFields];
    return term.descending ? desc(column) : asc(column);
  });
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(customers)
      .where(where)
      .orderBy(...orderBy, asc(customers.id))
      .limit(limit)
      .offset(offset),
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
  const ids = rows.map((row) => row.id);
  const idList = sql.join(
    (ids.length > 0 ? ids : [-1]).map((id) => sql`${id}`),
    sql`, `,
  );
  const [lastEntries, contracts, ageing] = await Promise.all([
    queryRows<LastEntry>(
      db,
      sql`select distinct on (t.customer_id, c.code_type) t.customer_id, c.code_type as kind,
                 t.amount::text as amount, t.service_date::text as service_date
          from transactions t join codes c on c.client_id = t.client_id and c.id = t.code_id
          where t.client_id = ${tenant.clientId} and t.customer_id in (${idList})
            and c.code_type in ('charge', 'payment', 'adjust') and not t.voided
          order by t.customer_id, c.code_type, t.service_date desc, t.id desc`,
    ),
    queryRows<{ customer_id: number | string; total: string }>(
      db,
      sql`select customer_id, sum(amount)::text as total from recurring_charges
          where client_id = ${tenant.clientId} and customer_id in (${idList}) group by customer_id`,
    ),
    ageCustomerBalances(db, tenant.clientId, filters.as_of ?? businessToday(), ids, "ledger"),
  ]);
  const last = (customerId: number, kind: LastEntry["kind"]) =>
    lastEntries.find((entry) => Number(entry.customer_id) === customerId && entry.kind === kind);
  const results = rows.map((row): CustomerListRow => {
    const base = customerToApi(row);
    const aged = ageing.find((entry) => entry.customerId === row.id);
    const charge = last(row.id, "charge");
    const payment = last(row.id, "payment");
    const credit = last(row.id, "adjust");
    // As of a past day the balance is the ledger's then; today it is the kept balance.
    const balance = filters.as_of && aged ? aged.balance : base.total_balance;
    return {
      ...base,
      total_balance: balance,
      balance,
      current_balance: aged?.current ?? base.current_balance,
      overdue_30_days: aged?.days30 ?? base.overdue_30_days,
      overdue_60_days: aged?.days60 ?? base.overdue_60_days,
      overdue_90_days: aged?.days90 ?? base.overdue_90_days,
      overdue_over_90_days: aged?.over90 ?? base.overdue_over_90_days,
      current_charges: row.mtdCharges,
      current_payments_credits: addAmounts(row.mtdPayments, row.mtdCrAdj),
      contract_balance: contracts.find((entry) => Number(entry.customer_id) === row.id)?.total ?? "0.00",
      adjusted_total_balance: subtractAmounts(
        addAmounts(addAmounts(row.previousBalance, row.mtdCharges), row.mtdDbAdj),
        addAmounts(row.mtdPayments, row.mtdCrAdj),
      ),
      mtdCharges: row.mtdCharges,
      mtdCRAdjust: row.mtdCrAdj,
      mtdDebitAdjust: row.mtdDbAdj,
      lastChargeAmount: charge?.amount ?? null,
      lastChargeDate: charge?.service_date ?? null,
      lastPaymentAmount: payment?.amount ?? null,
      lastPaymentDate: payment?.service_date ?? null,
      lastCreditAmount: credit?.amount ?? null,
      lastCreditDate: credit?.service_date ?? null,
    };
  });
  return { count: total, results };
}
