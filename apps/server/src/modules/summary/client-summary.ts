import { sql } from "drizzle-orm";
import {
  addAmounts,
  monthEnd,
  monthStart,
  negateAmount,
  subtractAmounts,
  sumAmounts,
  type ClientSummary,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import type { TenantContext } from "../../http/auth-context.js";
import { ageClientTotals } from "./customer-ageing.queries.js";
import { cachedSummary, ledgerStamp } from "./summary-cache.js";
import { amountOfCents, clientBook, type ClientBook } from "./client-book.js";
import { businessToday } from "../../clock.js";

/**
 * The home dashboard's figures, from the ledger: now (everything posted; an entry dated after today,
 * such as a payment credited on the first open day after a same-day run, counts in the balance, the
 * ageing as current, and this month's activity when it falls in this month), or as of a past day
 * (`asOf`: entries dated after it are left out of the counts, the month and the ageing). Today's
 * figures are summed from the process's client book, refreshed customer by customer from the change
 * log (client-book.ts); a past day's are computed once per state of the client's books and reused
 * while nothing has changed (summary-cache.ts).
 */
export async function summarizeClient(
  db: Database,
  tenant: TenantContext,
  asOf?: string,
): Promise<ClientSummary> {
  const date = asOf ?? businessToday();
  if (asOf === undefined) return summaryOfBook(await clientBook(db, tenant.clientId, date));
  const stamp = await ledgerStamp(db, tenant.clientId);
  return cachedSummary(db, `client ${tenant.clientId} ${date} past`, stamp, () =>
    computeClientSummary(db, tenant.clientId, date, true),
  );
}

/** The same figures as computeClientSummary, summed from the book's customers. */
export function summaryOfBook(book: ClientBook): ClientSummary {
  const { totals } = book;
  return {
    totalCustomers: book.activeCustomers,
    totalTransactions: book.entries,
    arBalanceAsOfDate: book.date,
    arCurrentBalance: amountOfCents(totals.current),
    arOverdue30: amountOfCents(totals.days30),
    arOverdue60: amountOfCents(totals.days60),
    arOverdue90: amountOfCents(totals.days90 + totals.over90),
    mtdCharges: amountOfCents(totals.charges),
    mtdPayments: amountOfCents(-totals.payments),
    mtdDebitAdj: amountOfCents(totals.debits),
    mtdCreditAdj: amountOfCents(-totals.credits),
    mtdTotal: amountOfCents(totals.charges + totals.debits + totals.payments + totals.credits),
    newBalance: amountOfCents(totals.balance),
    obexTotalBalance: amountOfCents(totals.balance),
    obexDateOfLastPayment: book.lastPayment,
  };
}

const customerCountsRowSchema = z.object({ customers: dbInt, entries: dbInt });
const laterEntriesRowSchema = z.object({ entries: dbInt });
const monthRowSchema = z.object({ code_type: dbText, total: dbDecimal });
const lastPaymentRowSchema = z.object({ service_date: dbDate });

/**
 * The figures computed in full from the ledger (a past day's; the client book is tested equal to it
 * now). Now (`past` false) counts what is dated after `asOf` as summarizeClient says.
 */
export async function computeClientSummary(
  db: Database,
  clientId: number,
  asOf: string,
  past: boolean,
): Promise<ClientSummary> {
  // The last day counted: the past day, or now the end of this month (the month's figures).
  const through = past ? asOf : monthEnd(asOf);
  // Today: the active customers. A past day: those opened by then and not yet archived.
  const active = past
    ? sql`open_date <= ${asOf}::date and (not deleted or deleted_at >= ${asOf}::date + 1)`
    : sql`not deleted`;
  const [counts, later, monthRows, lastPayment, ageing] = await Promise.all([
    queryRows(
      db,
      sql`select count(*) filter (where ${active}) as customers, coalesce(sum(ledger_entries), 0) as entries
          from customers where client_id = ${clientId}`,
      customerCountsRowSchema,
    ),
    queryRows(
      db,
      past
        ? sql`select count(*) as entries from transactions where client_id = ${clientId} and service_date > ${asOf}::date`
        : sql`select 0 as entries`,
      laterEntriesRowSchema,
    ),
    queryRows(
      db,
      // Signed, so a void or reversal nets against what it offsets.
      sql`select c.code_type, sum(t.ledger_amount)::text as total
          from transactions t join codes c on c.client_id = t.client_id and c.id = t.code_id
          where t.client_id = ${clientId} and t.service_date >= ${monthStart(asOf)}::date
            and t.service_date <= ${through}::date
          group by c.code_type`,
      monthRowSchema,
    ),
    queryRows(
      db,
      sql`select t.service_date::text as service_date from transactions t
          where t.client_id = ${clientId} ${past ? sql`and t.service_date <= ${asOf}::date` : sql``}
            and t.code_id in (select id from codes where client_id = ${clientId} and code_type = 'payment')
          order by t.service_date desc, t.id desc limit 1`,
      lastPaymentRowSchema,
    ),
    ageClientTotals(db, clientId, asOf, past ? "left-out" : "current"),
  ]);
  // Each figure as a positive amount: payments and credits lower the balance by what is shown.
  const monthTotal = (...types: string[]) =>
    sumAmounts(monthRows.filter((row) => types.includes(row.code_type)).map((row) => row.total));
  const mtdCharges = monthTotal("charge");
  const mtdPayments = negateAmount(monthTotal("payment"));
  const mtdDebitAdj = monthTotal("debit");
  const mtdCreditAdj = negateAmount(monthTotal("adjust", "percent_discount", "flat_discount"));
  return {
    totalCustomers: counts[0]?.customers ?? 0,
    totalTransactions: (counts[0]?.entries ?? 0) - (later[0]?.entries ?? 0),
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
    newBalance: ageing.balance,
    obexTotalBalance: ageing.balance,
    obexDateOfLastPayment: lastPayment[0]?.service_date ?? null,
  };
}
