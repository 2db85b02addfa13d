import { eq, sql } from "drizzle-orm";
import {
  CODE_TYPES,
  fiscalYearStart,
  monthEnd,
  monthStart,
  taxableCharges,
  type CustomerSummary,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbBool, dbDate, dbDecimal, dbText } from "../../db/row-schemas.js";
import { clients } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { findCustomer } from "../customers/manage-customers.js";
import { ageCustomerBalances, ageCustomersNow } from "./customer-ageing.queries.js";
import { businessToday } from "../../clock.js";

export type { CustomerSummary };

const totalsRowSchema = z.object({
  kind: dbText,
  mtd: dbDecimal,
  ytd: dbDecimal,
  last_year: dbDecimal,
  last_amount: dbDecimal.nullable(),
  last_date: dbDate.nullable(),
});
const paymentDateRowSchema = z.object({ service_date: dbDate });
const unprocessedRowSchema = z.object({ total: dbDecimal });
/** A month's line as the tax rule (the domain's TaxLine) reads it. */
const taxLineRowSchema = z.object({
  codeType: z.enum(CODE_TYPES),
  taxable: dbBool,
  amount: dbDecimal,
  voided: dbBool,
});

/**
 * The customer editor's Status tab: dates, balance, ageing and activity summaries, from the ledger,
 * now (everything posted: an entry dated after today counts in the balance, the ageing as current,
 * and in this month's and year's activity when it falls in this month) or as of a past day
 * (`pastDay`: entries dated after it are left out).
 */
export async function summarizeCustomer(
  db: Database,
  tenant: TenantContext,
  customerId: number,
  pastDay?: string,
): Promise<CustomerSummary> {
  const asOf = pastDay ?? businessToday();
  const customer = await findCustomer(db, tenant, customerId);
  const [client] = await db
    .select({ resetMonth: clients.fiscalYearResetMonth })
    .from(clients)
    .where(eq(clients.id, tenant.clientId));
  const yearStart = fiscalYearStart(asOf, client?.resetMonth ?? 1);
  const lastYearStart = `${Number(yearStart.slice(0, 4)) - 1}${yearStart.slice(4)}`;
  const fromMonth = monthStart(asOf);
  // The last day counted: the past day, or now the end of this month.
  const through = pastDay ?? monthEnd(asOf);
  // Kinds: charges, payments, credit adjustments (credits and discounts), debit adjustments. Sums are
  // of the signed ledger amounts in the kind's sense (as the statement boxes count them), so a void or
  // reversal takes its entry back out; the last amount and date are of an entry itself, not an offset.
  const totals = await queryRows(
    db,
    sql`with entries as (
          select case when c.code_type = 'charge' then 'charge'
                      when c.code_type = 'payment' then 'payment'
                      when c.code_type = 'debit' then 'debit'
                      else 'credit' end as kind,
                 case when c.code_type in ('charge', 'debit') then t.ledger_amount else -t.ledger_amount end as amount,
                 t.voided or t.voids_transaction_id is not null or t.reverses_transaction_id is not null as offset_pair,
                 t.service_date, t.id
          from transactions t join codes c on c.client_id = t.client_id and c.id = t.code_id
          where t.client_id = ${tenant.clientId} and t.customer_id = ${customerId}
            and c.code_type <> 'info' and t.service_date <= ${through}::date)
        select kind,
          coalesce(sum(amount) filter (where service_date >= ${fromMonth}::date), 0)::numeric(14,2)::text as mtd,
          coalesce(sum(amount) filter (where service_date >= ${yearStart}::date), 0)::numeric(14,2)::text as ytd,
          coalesce(sum(amount) filter (where service_date >= ${lastYearStart}::date and service_date < ${yearStart}::date), 0)::numeric(14,2)::text as last_year,
          (array_agg(amount::text order by service_date desc, id desc) filter (where not offset_pair))[1] as last_amount,
          (array_agg(service_date::text order by service_date desc, id desc) filter (where not offset_pair))[1] as last_date
        from entries group by kind`,
    totalsRowSchema,
  );
  const payments = await queryRows(
    db,
    sql`select t.service_date::text as service_date from transactions t
        join codes c on c.client_id = t.client_id and c.id = t.code_id
        where t.client_id = ${tenant.clientId} and t.customer_id = ${customerId} and c.code_type = 'payment' and not t.voided
          and t.voids_transaction_id is null and t.reverses_transaction_id is null and t.service_date <= ${through}::date
        order by t.service_date desc, t.id desc limit 4`,
    paymentDateRowSchema,
  );
  const [unprocessed] = await queryRows(
    db,
    // As of a past day: the entries dated by then that no statement dated by then had billed.
    pastDay
      ? sql`select coalesce(sum(t.ledger_amount), 0)::numeric(14,2)::text as total
          from transactions t
          left join statements s on s.client_id = t.client_id and s.id = t.statement_id
          where t.client_id = ${tenant.clientId} and t.customer_id = ${customerId}
            and t.service_date <= ${asOf}::date and (s.id is null or s.statement_date > ${asOf}::date)`
      : sql`select coalesce(sum(t.ledger_amount) filter (where t.statement_id is null), 0)::numeric(14,2)::text as total
          from transactions t
          where t.client_id = ${tenant.clientId} and t.customer_id = ${customerId}`,
    unprocessedRowSchema,
  );
  // This month's lines go through the one tax rule the invoice PDF uses too.
  const monthLines = await queryRows(
    db,
    sql`select c.code_type as "codeType", c.taxable, t.amount::text as amount, t.voided
        from transactions t join codes c on c.client_id = t.client_id and c.id = t.code_id
        where t.client_id = ${tenant.clientId} and t.customer_id = ${customerId}
          and t.service_date >= ${fromMonth}::date and t.service_date <= ${through}::date`,
    taxLineRowSchema,
  );
  const [ageing] = pastDay
    ? await ageCustomerBalances(db, tenant.clientId, pastDay, [customerId])
    : await ageCustomersNow(db, tenant.clientId, [customerId]);
  const of = (kind: string) =>
    totals.find((row) => row.kind === kind) ?? {
      mtd: "0.00",
      ytd: "0.00",
      last_year: "0.00",
      last_amount: null,
      last_date: null,
    };
  const charge = of("charge");
  const payment = of("payment");
  const credit = of("credit");
  const debit = of("debit");
  return {
    customer_id: customer.id,
    open_date: customer.openDate,
    // As of a past day, that day's last payment (the kept date is today's).
    last_pay_date: pastDay ? (payments[0]?.service_date ?? null) : customer.lastPayDate,
    // Today the kept balance; as of a past day the ledger's balance then (what the ageing splits).
    balance: pastDay && ageing ? ageing.balance : customer.totalBalance,
    previous_balance: customer.previousBalance,
    current_balance: ageing?.current ?? "0.00",
    overdue_30_days: ageing?.days30 ?? "0.00",
    overdue_60_days: ageing?.days60 ?? "0.00",
    overdue_90_days: ageing?.days90 ?? "0.00",
    overdue_over_90_days: ageing?.over90 ?? "0.00",
    current_charges: charge.mtd,
    currentCharges: charge.mtd,
    ytdCharges: charge.ytd,
    charges_last_yr: charge.last_year,
    last_charge_date: charge.last_date,
    last_charge_amount: charge.last_amount,
    current_payments: payment.mtd,
    currentPayments: payment.mtd,
    ytdPayments: payment.ytd,
    payments_last_yr: payment.last_year,
    last_pay_date_1: payments[0]?.service_date ?? null,
    last_pay_date_2: payments[1]?.service_date ?? null,
    last_pay_date_3: payments[2]?.service_date ?? null,
    last_pay_date_4: payments[3]?.service_date ?? null,
    last_pay_amount: payment.last_amount,
    currentCreditAdjustment: credit.mtd,
    ytdCreditAdjustment: credit.ytd,
    last_year_credits: credit.last_year,
    last_credit_amount: credit.last_amount,
    last_cr_adj_date: credit.last_date,
    currentDebitAdjustment: debit.mtd,
    ytdDebitAdjustment: debit.ytd,
    last_year_db_adj: debit.last_year,
    last_debit_amount: debit.last_amount,
    last_db_adj_date: debit.last_date,
    unprocessedBalance: unprocessed?.total ?? "0.00",
    tax: taxableCharges(customer.taxStatus, monthLines),
  };
}
