import { and, count, eq, gte, max, sql } from "drizzle-orm";
import {
  AGEING_BUCKETS,
  addAmounts,
  addBuckets,
  emptyBuckets,
  subtractAmounts,
  sumAmounts,
} from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { codes, customers, transactions } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { ageCustomerBalances } from "./customer-ageing.queries.js";
import { businessToday } from "../../clock.js";

export type ClientSummary = {
  totalCustomers: number;
  totalTransactions: number;
  arBalanceAsOfDate: string;
  arCurrentBalance: string;
  arOverdue30: string;
  arOverdue60: string;
  arOverdue90: string;
  mtdCharges: string;
  mtdPayments: string;
  mtdDebitAdj: string;
  mtdCreditAdj: string;
  mtdTotal: string;
  newBalance: string;
  obexTotalBalance: string;
  obexDateOfLastPayment: string | null;
};

function today(): string {
  return businessToday();
}

/** The home dashboard's figures, all computed from the ledger as of today. */
export async function summarizeClient(
  db: Database,
  tenant: TenantContext,
  asOf = today(),
): Promise<ClientSummary> {
  const monthStart = `${asOf.slice(0, 7)}-01`;
  const [customerCount] = await db
    .select({ total: count() })
    .from(customers)
    .where(and(eq(customers.clientId, tenant.clientId), eq(customers.deleted, false)));
  const [transactionCount] = await db
    .select({
      total: count(),
      lastPayment: max(
        sql<
          string | null
        >`case when ${codes.codeType} = 'payment' then ${transactions.serviceDate}::text end`,
      ),
    })
    .from(transactions)
    .innerJoin(codes, and(eq(codes.clientId, transactions.clientId), eq(codes.id, transactions.codeId)))
    .where(eq(transactions.clientId, tenant.clientId));
  const monthRows = await db
    .select({ codeType: codes.codeType, total: sql<string>`sum(${transactions.amount})::text` })
    .from(transactions)
    .innerJoin(codes, and(eq(codes.clientId, transactions.clientId), eq(codes.id, transactions.codeId)))
    .where(and(eq(transactions.clientId, tenant.clientId), gte(transactions.serviceDate, monthStart)))
    .groupBy(codes.codeType);
  const monthTotal = (...types: string[]) =>
    sumAmounts(monthRows.filter((row) => types.includes(row.codeType)).map((row) => row.total));

  const ageing = (await ageCustomerBalances(db, tenant.clientId, asOf)).reduce(
    (totals, customer) => addBuckets(totals, customer),
    emptyBuckets(),
  );
  const newBalance = sumAmounts(AGEING_BUCKETS.map((bucket) => ageing[bucket]));
  const mtdCharges = monthTotal("charge");
  const mtdPayments = monthTotal("payment");
  const mtdDebitAdj = monthTotal("debit");
  const mtdCreditAdj = monthTotal("adjust", "percent_discount", "flat_discount");
  return {
    totalCustomers: customerCount?.total ?? 0,
    totalTransactions: transactionCount?.total ?? 0,
    arBalanceAsOfDate: asOf,
    arCurrentBalance: ageing.current,
    arOverdue30: ageing.days30,
    arOverdue60: ageing.days60,
    arOverdue90: addAmounts(ageing.days90, ageing.over90),
    mtdCharges,
    mtdPayments,
    mtdDebitAdj,
    mtdCreditAdj,
    mtdTotal: subtractAmounts(addAmounts(mtdCharges, mtdDebitAdj), addAmounts(mtdPayments, mtdCreditAdj)),
    newBalance,
    obexTotalBalance: newBalance,
    obexDateOfLastPayment: transactionCount?.lastPayment ?? null,
  };
}
