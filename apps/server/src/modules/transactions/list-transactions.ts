import { cachedCount } from "../../db/list-counts.js";
import { and, asc, count, desc, eq, gte, isNull, lte, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import {
  CODE_TYPES,
  calendarDate,
  integerParam,
  parseOrdering,
  resolvePaging,
  type ListQuery,
  type Page,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import {
  hasPreparedRunner,
  inlineCount,
  namesPage,
  preparedStatementArrays,
} from "../../db/prepared-rows.js";
import { codes, customers, transactions } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError } from "../../http/errors.js";
import { clientCounts } from "../summary/client-counts.js";
import {
  selectTransactions,
  transactionToApi,
  viewFromColumns,
  type TransactionOutput,
  type TransactionView,
} from "./transaction-view.js";

const flag = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((value) => value === true || value === "true" || value === "1");

/** The transaction filter's query keys, as the spec names them. */
export const transactionFiltersSchema = z.looseObject({
  customer__id: integerParam({ min: 1 }).optional(),
  code__id: integerParam({ min: 1 }).optional(),
  code__code_type: z.enum(CODE_TYPES).optional(),
  created__gte: calendarDate().optional(),
  created__lte: calendarDate().optional(),
  serviceDate__gte: calendarDate().optional(),
  serviceDate__lte: calendarDate().optional(),
  /** false: only entries not yet billed on a statement; true or absent: all. */
  historical: flag.optional(),
  invoice: integerParam({ min: 1 }).optional(),
});
export type TransactionFilters = z.output<typeof transactionFiltersSchema>;

export const transactionOrderingFields = {
  id: transactions.id,
  created: transactions.createdAt,
  serviceDate: transactions.serviceDate,
  amount: transactions.amount,
  rate: transactions.rate,
  description: transactions.description,
  customer: customers.customerNo,
  customer_no: customers.customerNo,
  customer_name: customers.customerName,
  code: codes.code,
} as const;

/** A filter's value, or (for a statement kept and reused) a placeholder for it. */
type Bind = <T>(name: string, value: T) => T | SQLWrapper;
const byValue: Bind = (_name, value) => value;
const byPlaceholder: Bind = (name) => sql.placeholder(name);

export function transactionConditions(
  tenant: TenantContext,
  filters: TransactionFilters,
  bind: Bind = byValue,
): SQL {
  const conditions: (SQL | undefined)[] = [eq(transactions.clientId, bind("clientId", tenant.clientId))];
  if (filters.customer__id)
    conditions.push(eq(transactions.customerId, bind("customerId", filters.customer__id)));
  if (filters.code__id) conditions.push(eq(transactions.codeId, bind("codeId", filters.code__id)));
  if (filters.code__code_type) conditions.push(eq(codes.codeType, bind("codeType", filters.code__code_type)));
  // Entry dates are whole days in UTC: "to" includes the whole day.
  if (filters.created__gte)
    conditions.push(
      sql`${transactions.createdAt} >= ${bind("createdFrom", dayStart(filters.created__gte))}::timestamptz`,
    );
  if (filters.created__lte) {
    conditions.push(
      sql`${transactions.createdAt} < ${bind("createdTo", dayStart(filters.created__lte))}::timestamptz + interval '1 day'`,
    );
  }
  if (filters.serviceDate__gte)
    conditions.push(gte(transactions.serviceDate, bind("serviceFrom", filters.serviceDate__gte)));
  if (filters.serviceDate__lte)
    conditions.push(lte(transactions.serviceDate, bind("serviceTo", filters.serviceDate__lte)));
  if (filters.historical === false) conditions.push(isNull(transactions.statementId));
  if (filters.invoice) conditions.push(eq(transactions.invoiceId, bind("invoice", filters.invoice)));
  return and(...conditions) as SQL;
}

function dayStart(day: string): string {
  return `${day}T00:00:00Z`;
}

/** The values of transactionConditions' placeholders. */
function placeholderValues(tenant: TenantContext, filters: TransactionFilters): Record<string, unknown> {
  return {
    clientId: tenant.clientId,
    customerId: filters.customer__id,
    codeId: filters.code__id,
    codeType: filters.code__code_type,
    createdFrom: filters.created__gte && dayStart(filters.created__gte),
    createdTo: filters.created__lte && dayStart(filters.created__lte),
    serviceFrom: filters.serviceDate__gte,
    serviceTo: filters.serviceDate__lte,
    invoice: filters.invoice,
  };
}

/**
 * Entry and service dates run together, so when the search filters a range of one date and orders
 * by the other, PostgreSQL walks the ordering index hoping to meet the range soon and reads most of
 * the ledger (400 ms on a million entries). Ordering by an expression no index holds makes it take
 * the range by its index and sort those rows instead (20–60 ms).
 */
function orderingColumn(field: keyof typeof transactionOrderingFields, filters: TransactionFilters) {
  const serviceRange = filters.serviceDate__gte !== undefined || filters.serviceDate__lte !== undefined;
  const createdRange = filters.created__gte !== undefined || filters.created__lte !== undefined;
  if (field === "created" && serviceRange && !createdRange)
    return sql`(${transactions.createdAt} + interval '0 seconds')`;
  if (field === "serviceDate" && createdRange && !serviceRange) return sql`(${transactions.serviceDate} + 0)`;
  return transactionOrderingFields[field];
}

type OrderingTerm = { field: string; descending: boolean };

function pageSelect(
  db: Database,
  tenant: TenantContext,
  filters: TransactionFilters,
  terms: OrderingTerm[],
  paging: { limit: number; offset: number },
  bind: Bind,
) {
  const orderBy = terms.map((term) => {
    const column = orderingColumn(term.field as keyof typeof transactionOrderingFields, filters);
    return term.descending ? desc(column) : asc(column);
  });
  return selectTransactions(db, transactionConditions(tenant, filters, bind))
    .orderBy(...orderBy, desc(transactions.id))
    .limit(inlineCount(paging.limit))
    .offset(inlineCount(paging.offset));
}

/**
 * A common page (one sort field, a first page) as a kept statement built once per shape: which
 * filters are given, the ordering and the page. Planning the six-table join cost the database
 * more than running it, and building the statement cost the server a quarter of the request.
 */
async function keptPage(
  db: Database,
  tenant: TenantContext,
  filters: TransactionFilters,
  terms: OrderingTerm[],
  paging: { limit: number; offset: number },
): Promise<TransactionView[]> {
  const values = placeholderValues(tenant, filters);
  const shape = JSON.stringify([
    terms,
    paging,
    Object.keys(values).filter((key) => values[key] !== undefined),
    filters.historical === false,
  ]);
  const rows = await preparedStatementArrays(
    db,
    `transaction_list ${shape}`,
    () => pageSelect(db, tenant, filters, terms, paging, byPlaceholder).getSQL(),
    values,
  );
  return rows.map(viewFromColumns);
}

export async function listTransactions(
  db: Database,
  tenant: TenantContext,
  query: ListQuery,
  filters: TransactionFilters,
): Promise<Page<TransactionOutput>> {
  const ordering = parseOrdering(query.ordering ?? "-serviceDate", Object.keys(transactionOrderingFields));
  if (!ordering.ok) {
    throw fieldError(
      "ordering",
      `Unknown ordering field: ${ordering.unknown.join(", ")}. Allowed: ${Object.keys(transactionOrderingFields).join(", ")}.`,
    );
  }
  const paging = resolvePaging(query);
  const [rows, total] = await Promise.all([
    // Named for the common shapes only, so a connection keeps a bounded number of statements.
    ordering.terms.length <= 1 && namesPage(paging) && hasPreparedRunner(db)
      ? keptPage(db, tenant, filters, ordering.terms, paging)
      : pageSelect(db, tenant, filters, ordering.terms, paging, byValue),
    // The whole ledger's length is the customers' tallies, kept per process and exact at a snapshot
    // after the request began (client-counts.ts); a filtered count is kept a moment (list-counts.ts).
    isWholeLedger(filters)
      ? clientCounts(db, tenant.clientId).then((counts) => counts.entries)
      : cachedCount(db, tenant.clientId, `transactions ${JSON.stringify(filters)}`, async () => {
          const [row] = await countTransactions(db, tenant, transactionConditions(tenant, filters), filters);
          return Number(row?.total ?? 0);
        }),
  ]);
  return { count: total, results: rows.map(transactionToApi) };
}

/** True when the search names no filter at all: the whole client ledger. */
function isWholeLedger(filters: TransactionFilters): boolean {
  return (
    filters.customer__id === undefined &&
    filters.code__id === undefined &&
    filters.code__code_type === undefined &&
    filters.created__gte === undefined &&
    filters.created__lte === undefined &&
    filters.serviceDate__gte === undefined &&
    filters.serviceDate__lte === undefined &&
    filters.historical !== false &&
    filters.invoice === undefined
  );
}

/**
 * The whole client ledger's count and sums from the customers' running tallies (kept in the same
 * database transaction as every posting; the ledger invariant test checks them), instead of
 * reading every entry.
 */
async function wholeLedgerTotals(db: Database, clientId: number): Promise<TransactionTotals> {
  const [[row], [split]] = await Promise.all([
    db
      .select({
        total: sql<string>`coalesce(sum(${customers.ledgerAmountTotal}), 0)::numeric(14,2)::text`,
        net: sql<string>`coalesce(sum(${customers.totalBalance}), 0)::numeric(14,2)::text`,
        count: sql<number>`coalesce(sum(${customers.ledgerEntries}), 0)::int`,
      })
      .from(customers)
      .where(eq(customers.clientId, clientId)),
    // The tallies keep no charges/credits split, so that part reads the client's entries.
    db.select(splitColumns).from(transactions).where(eq(transactions.clientId, clientId)),
  ]);
  return {
    totalAmount: row?.total ?? "0.00",
    chargesAmount: split?.charges ?? "0.00",
    creditsAmount: split?.credits ?? "0.00",
    netAmount: row?.net ?? "0.00",
    count: Number(row?.count ?? 0),
  };
}

/**
 * The one rule of the totals' split. Charges: what raises balances (charges, debits); credits:
 * what lowers them (payments, credits, discounts). A void or reversal is counted with the entry it
 * takes back, so it lowers that side: a payment's reversal (+) lowers the credits, not adds to the
 * charges, and a charge's void (-) lowers the charges. An offset has the opposite sign of its
 * entry, so the side is the sign, flipped for offsets.
 */
const isOffset = sql`(${transactions.voidsTransactionId} is not null or ${transactions.reversesTransactionId} is not null)`;
const onChargeSide = sql`((${transactions.ledgerAmount} > 0) <> ${isOffset})`;
const splitColumns = {
  charges: sql<string>`coalesce(sum(${transactions.ledgerAmount}) filter (where ${transactions.ledgerAmount} <> 0 and ${onChargeSide}), 0)::numeric(14,2)::text`,
  credits: sql<string>`coalesce(sum(${transactions.ledgerAmount}) filter (where ${transactions.ledgerAmount} <> 0 and not ${onChargeSide}), 0)::numeric(14,2)::text`,
};

/** The codes join is needed only to filter by code type; without it the count reads one index. */
function countTransactions(db: Database, tenant: TenantContext, where: SQL, filters: TransactionFilters) {
  const base = db.select({ total: count() }).from(transactions);
  return filters.code__code_type
    ? base
        .innerJoin(codes, and(eq(codes.clientId, transactions.clientId), eq(codes.id, transactions.codeId)))
        .where(where)
    : base.where(where);
}

export type TransactionTotals = {
  totalAmount: string;
  chargesAmount: string;
  creditsAmount: string;
  netAmount: string;
  count: number;
};

/** Totals of the filtered set: the sum of amounts, and the net change to balances. */
export async function totalTransactions(
  db: Database,
  tenant: TenantContext,
  filters: TransactionFilters,
): Promise<TransactionTotals> {
  if (isWholeLedger(filters)) return wholeLedgerTotals(db, tenant.clientId);
  const totals = db
    .select({
      total: sql<string>`coalesce(sum(${transactions.amount}), 0)::numeric(14,2)::text`,
      net: sql<string>`coalesce(sum(${transactions.ledgerAmount}), 0)::numeric(14,2)::text`,
      ...splitColumns,
      count: count(),
    })
    .from(transactions);
  const where = transactionConditions(tenant, filters);
  const [row] = filters.code__code_type
    ? await totals
        .innerJoin(codes, and(eq(codes.clientId, transactions.clientId), eq(codes.id, transactions.codeId)))
        .where(where)
    : await totals.where(where);
  return {
    totalAmount: row?.total ?? "0.00",
    chargesAmount: row?.charges ?? "0.00",
    creditsAmount: row?.credits ?? "0.00",
    netAmount: row?.net ?? "0.00",
    count: row?.count ?? 0,
  };
}
