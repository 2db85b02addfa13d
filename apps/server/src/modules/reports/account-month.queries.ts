import { sql } from "drizzle-orm";
import { CODE_TYPES, LATE_FEE_CODE, type CodeType, type ReportMonth } from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbBool, dbDate, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";

/**
 * Reads of one client's month for the Account Reports. Only reads: the ledger writer is the only
 * code that writes entries or balances. The month is by service date, as ageing and statements
 * are: an entry belongs to the month it is dated in, whenever it was entered.
 */

/**
 * How an entry (`t`, its code `c`, the entry it voids or reverses `o`) was posted, for its report
 * category: a late fee by the one rule (isLateFee: its code, which its voids share), else the
 * original entry's type, so an entry and its offset net to zero in the same line.
 */
const CATEGORY_TYPE = sql`case when c.code = ${LATE_FEE_CODE} then 'late_fee'
  else coalesce(o.transaction_type, t.transaction_type) end`;

export type RegisterCustomer = { id: number; customerNo: number; name: string; opening: string };

export type RegisterEntry = {
  id: number;
  customerId: number;
  serviceDate: string;
  code: number;
  codeType: CodeType;
  /** How the entry was posted; for a void or reversal, how the entry it offsets was posted. */
  categoryType: string;
  description: string;
  quantity: string;
  rate: string;
  ledgerAmount: string;
  entered: string;
  voided: boolean;
  voidsId: number | null;
  reversesId: number | null;
  reversed: boolean;
};

const customerRowSchema = z.object({
  id: dbInt,
  customer_no: dbInt,
  customer_name: dbText,
  opening: dbDecimal,
});

/**
 * The next page of the client's customers opened by the month's end, in customer-number order after `afterCustomerNo`, each
 * with its balance at the start of the month: the kept balance less every entry dated from then on.
 */
export async function registerCustomerPage(
  db: Executor,
  clientId: number,
  month: ReportMonth,
  afterCustomerNo: number,
  limit: number,
): Promise<RegisterCustomer[]> {
  const rows = await queryRows(
    db,
    sql`with page as (
          select id, customer_no, customer_name, total_balance from customers
          where client_id = ${clientId} and customer_no > ${afterCustomerNo}
            -- opened by the month's end (a customer opened later is not the month's), unless it
            -- has an entry dated by then: every dated entry stays in the books' tie
            and (open_date <= ${month.end}::date or exists (
                  select 1 from transactions e where e.client_id = ${clientId}
                  and e.customer_id = customers.id and e.service_date <= ${month.end}::date))
          order by customer_no limit ${limit})
        select p.id, p.customer_no, p.customer_name,
               (p.total_balance - coalesce((
                  select sum(t.ledger_amount) from transactions t
                  where t.client_id = ${clientId} and t.customer_id = p.id and t.service_date >= ${month.start}::date
               ), 0))::numeric(14,2)::text as opening
        from page p order by p.customer_no`,
    customerRowSchema,
  );
  return rows.map((row) => ({
    id: row.id,
    customerNo: row.customer_no,
    name: row.customer_name,
    opening: row.opening,
  }));
}

const entryRowSchema = z.object({
  id: dbInt,
  customer_id: dbInt,
  service_date: dbDate,
  code: dbInt,
  code_type: z.enum(CODE_TYPES),
  category_type: dbText,
  description: dbText,
  quantity: dbDecimal,
  rate: dbDecimal,
  ledger_amount: dbDecimal,
  /** The day it was entered, as YYYY-MM-DD text. */
  entered: dbDate,
  voided: dbBool,
  voids_transaction_id: dbInt.nullable(),
  reverses_transaction_id: dbInt.nullable(),
  reversed: dbBool,
});

/** The month's entries of these customers, by customer, date and id. */
export async function registerEntries(
  db: Executor,
  clientId: number,
  month: ReportMonth,
  customerIds: readonly number[],
): Promise<RegisterEntry[]> {
  if (customerIds.length === 0) return [];
  const ids = sql.join(
    customerIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = await queryRows(
    db,
    sql`select t.id, t.customer_id, t.service_date::text as service_date, c.code, c.code_type,
               ${CATEGORY_TYPE} as category_type,
               t.description, t.quantity::text as quantity, t.rate::text as rate,
               t.ledger_amount::text as ledger_amount,
               to_char(t.created_at, 'YYYY-MM-DD') as entered, t.voided,
               t.voids_transaction_id, t.reverses_transaction_id,
               exists (select 1 from transactions r where r.client_id = t.client_id
                         and r.reverses_transaction_id = t.id) as reversed
        from transactions t
        join codes c on c.client_id = t.client_id and c.id = t.code_id
        left join transactions o on o.client_id = t.client_id
             and o.id = coalesce(t.voids_transaction_id, t.reverses_transaction_id)
        where t.client_id = ${clientId} and t.customer_id in (${ids})
          and t.service_date >= ${month.start}::date and t.service_date <= ${month.end}::date
        order by t.customer_id, t.service_date, t.id`,
    entryRowSchema,
  );
  return rows.map((row) => ({
    id: row.id,
    customerId: row.customer_id,
    serviceDate: row.service_date,
    code: row.code,
    codeType: row.code_type,
    categoryType: row.category_type,
    description: row.description,
    quantity: row.quantity,
    rate: row.rate,
    ledgerAmount: row.ledger_amount,
    entered: row.entered,
    voided: row.voided,
    voidsId: row.voids_transaction_id,
    reversesId: row.reverses_transaction_id,
    reversed: row.reversed,
  }));
}

export type CodeMonthTotal = {
  code: number;
  description: string;
  codeType: CodeType;
  categoryType: string;
  count: number;
  total: string;
};

const codeMonthRowSchema = z.object({
  code: dbInt,
  description: dbText,
  code_type: z.enum(CODE_TYPES),
  category_type: dbText,
  entries: dbInt,
  total: dbDecimal,
});

/** Each code's entries of the month: how many and their signed total, split by how they were posted. */
export async function codeMonthTotals(
  db: Executor,
  clientId: number,
  month: ReportMonth,
): Promise<CodeMonthTotal[]> {
  const rows = await queryRows(
    db,
    sql`select c.code, c.description, c.code_type,
               case when ${CATEGORY_TYPE} in ('late_fee', 'recurring') then ${CATEGORY_TYPE}
                    else 'other' end as category_type,
               count(*) as entries, sum(t.ledger_amount)::numeric(14,2)::text as total
        from transactions t
        join codes c on c.client_id = t.client_id and c.id = t.code_id
        left join transactions o on o.client_id = t.client_id
             and o.id = coalesce(t.voids_transaction_id, t.reverses_transaction_id)
        where t.client_id = ${clientId}
          and t.service_date >= ${month.start}::date and t.service_date <= ${month.end}::date
        group by 1, 2, 3, 4
        order by c.code, 4`,
    codeMonthRowSchema,
  );
  return rows.map((row) => ({
    code: row.code,
    description: row.description,
    codeType: row.code_type,
    categoryType: row.category_type,
    count: row.entries,
    total: row.total,
  }));
}

export type MonthReceivables = { opening: string; closing: string };
const monthReceivablesRowSchema = z.object({ opening: dbDecimal, closing: dbDecimal });

/**
 * Receivables at the start of the month and at its end, each as the sum of every customer's balance
 * then (kept balances less the entries dated later), independent of the month's activity.
 */
export async function monthReceivables(
  db: Executor,
  clientId: number,
  month: ReportMonth,
): Promise<MonthReceivables> {
  const [row] = await queryRows(
    db,
    sql`select ((select coalesce(sum(total_balance), 0) from customers where client_id = ${clientId})
                - coalesce(sum(ledger_amount), 0))::numeric(14,2)::text as opening,
               ((select coalesce(sum(total_balance), 0) from customers where client_id = ${clientId})
                - coalesce(sum(ledger_amount) filter (where service_date > ${month.end}::date), 0))::numeric(14,2)::text as closing
        from transactions where client_id = ${clientId} and service_date >= ${month.start}::date`,
    monthReceivablesRowSchema,
  );
  return row ?? { opening: "0.00", closing: "0.00" };
}

export type MonthCustomerCounts = { active: number; opened: number; archived: number };
const monthCustomerCountsRowSchema = z.object({ active: dbInt, opened: dbInt, archived: dbInt });

/** Customers active at the month's end (opened by then, not archived by then), opened and archived in it. */
export async function monthCustomerCounts(
  db: Executor,
  clientId: number,
  month: ReportMonth,
): Promise<MonthCustomerCounts> {
  const [row] = await queryRows(
    db,
    sql`select count(*) filter (where open_date <= ${month.end}::date
                 and (not deleted or deleted_at >= ${month.end}::date + 1)) as active,
               count(*) filter (where open_date >= ${month.start}::date and open_date <= ${month.end}::date) as opened,
               count(*) filter (where deleted and deleted_at >= ${month.start}::date
                 and deleted_at < ${month.end}::date + 1) as archived
        from customers where client_id = ${clientId}`,
    monthCustomerCountsRowSchema,
  );
  return {
    active: row?.active ?? 0,
    opened: row?.opened ?? 0,
    archived: row?.archived ?? 0,
  };
}

const statementCountRowSchema = z.object({ delivery: dbText, count: dbInt });

/** Statements dated in the month, by how they went out (mail, email, both, bulk, pulled). */
export async function monthStatementCounts(
  db: Executor,
  clientId: number,
  month: ReportMonth,
): Promise<{ delivery: string; count: number }[]> {
  const rows = await queryRows(
    db,
    sql`select delivery, count(*) as count from statements
        where client_id = ${clientId} and statement_date >= ${month.start}::date
          and statement_date <= ${month.end}::date
        group by delivery order by delivery`,
    statementCountRowSchema,
  );
  return rows.map((row) => ({ delivery: row.delivery, count: row.count }));
}

const clientHeadingRowSchema = z.object({ client_name: dbText, client_no: dbInt });

export async function clientHeading(
  db: Executor,
  clientId: number,
): Promise<{ name: string; clientNo: number }> {
  const [row] = await queryRows(
    db,
    sql`select client_name, client_no from clients where id = ${clientId}`,
    clientHeadingRowSchema,
  );
  return { name: row?.client_name ?? "", clientNo: row?.client_no ?? 0 };
}
