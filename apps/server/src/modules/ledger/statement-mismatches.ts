import { sql } from "drizzle-orm";
import { amountToCents, boxesReconcile } from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt } from "../../db/row-schemas.js";
import type { LedgerScope } from "./ledger-mismatches.js";

/** An issued statement that does not prove itself, with each rule it breaks. */
export type StatementMismatch = {
  clientId: number;
  customerId: number;
  statementId: number;
  statementNum: number;
  statementDate: string;
  reasons: string[];
};

const statementRowSchema = z.object({
  client_id: dbInt,
  customer_id: dbInt,
  id: dbInt,
  statement_num: dbInt,
  statement_date: dbDate,
  previous_balance: dbDecimal,
  charges: dbDecimal,
  late_fees: dbDecimal,
  debit_adjustments: dbDecimal,
  payments: dbDecimal,
  credit_adjustments: dbDecimal,
  new_balance: dbDecimal,
  prior_new_balance: dbDecimal.nullable(),
  prior_date: dbDate.nullable(),
  lines_sum: dbDecimal,
  lines_outside: dbInt,
  entries_missing: dbInt,
  ledger_at_date: dbDecimal,
});
type StatementRow = z.output<typeof statementRowSchema>;

/**
 * Every current statement of the scope (replaced versions are kept as sent and not checked) proves itself, or is listed with why: its boxes add up (previous +
 * charges + late fees + debits − payments − credits = new balance); its previous balance is the
 * customer's previous statement's new balance; its lines are exactly the customer's entries dated
 * in its period (after the previous statement's date, up to its own) and add up to the change of
 * balance; its new balance is the customer's ledger balance at its date.
 */
export async function statementMismatches(
  db: Executor,
  scope: LedgerScope = {},
): Promise<StatementMismatch[]> {
  const byClient = scope.clientId === undefined ? sql`true` : sql`s.client_id = ${scope.clientId}`;
  const byCustomer =
    scope.customerIds === undefined
      ? sql`true`
      : sql`s.customer_id = any(${`{${scope.customerIds.join(",")}}`}::bigint[])`;
  const rows = await queryRows(
    db,
    sql`
    with s as (
      select s.client_id, s.customer_id, s.id, s.statement_num, s.statement_date, s.previous_balance, s.charges,
             s.late_fees, s.debit_adjustments, s.payments, s.credit_adjustments, s.new_balance,
             lag(s.new_balance) over w as prior_new_balance, lag(s.statement_date) over w as prior_date
      from statements s
      -- A replaced version is kept as it was sent; its corrected version stands in the chain.
      where ${byClient} and ${byCustomer} and s.replaced_by_id is null
      window w as (partition by s.client_id, s.customer_id order by s.statement_date, s.id)
    )
    select s.client_id, s.customer_id, s.id, s.statement_num, s.statement_date::text as statement_date,
           s.previous_balance::text as previous_balance, s.charges::text as charges, s.late_fees::text as late_fees,
           s.debit_adjustments::text as debit_adjustments, s.payments::text as payments,
           s.credit_adjustments::text as credit_adjustments, s.new_balance::text as new_balance,
           s.prior_new_balance::text as prior_new_balance, s.prior_date::text as prior_date,
           (select coalesce(sum(t.ledger_amount), 0) from transactions t
             where t.client_id = s.client_id and t.customer_id = s.customer_id and t.statement_id = s.id)::text as lines_sum,
           (select count(*) from transactions t
             where t.client_id = s.client_id and t.customer_id = s.customer_id and t.statement_id = s.id
               and (t.service_date > s.statement_date or t.service_date <= s.prior_date))::int as lines_outside,
           (select count(*) from transactions t
             where t.client_id = s.client_id and t.customer_id = s.customer_id
               and t.service_date <= s.statement_date and (s.prior_date is null or t.service_date > s.prior_date)
               and t.statement_id is distinct from s.id)::int as entries_missing,
           (select coalesce(sum(t.ledger_amount), 0) from transactions t
             where t.client_id = s.client_id and t.customer_id = s.customer_id
               and t.service_date <= s.statement_date)::text as ledger_at_date
    from s
    order by s.client_id, s.customer_id, s.statement_date, s.id`,
    statementRowSchema,
  );
  const mismatches: StatementMismatch[] = [];
  for (const row of rows) {
    const reasons = statementReasons(row);
    if (reasons.length > 0)
      mismatches.push({
        clientId: row.client_id,
        customerId: row.customer_id,
        statementId: row.id,
        statementNum: row.statement_num,
        statementDate: row.statement_date,
        reasons,
      });
  }
  return mismatches;
}

/** Exact cents (the domain's one money parser), never through floating point. */
const cents = amountToCents;

function statementReasons(row: StatementRow): string[] {
  const reasons: string[] = [];
  const boxes = {
    previousBalance: row.previous_balance,
    charges: row.charges,
    lateFees: row.late_fees,
    debitAdjustments: row.debit_adjustments,
    payments: row.payments,
    creditAdjustments: row.credit_adjustments,
    newBalance: row.new_balance,
  };
  if (!boxesReconcile(boxes)) reasons.push(`its boxes do not add up to the new balance ${row.new_balance}`);
  if (row.prior_new_balance !== null && cents(row.prior_new_balance) !== cents(row.previous_balance))
    reasons.push(
      `previous balance ${row.previous_balance} vs the previous statement's new balance ${row.prior_new_balance}`,
    );
  if (cents(row.previous_balance) + cents(row.lines_sum) !== cents(row.new_balance))
    reasons.push(`its lines (${row.lines_sum}) do not take the previous balance to the new balance`);
  if (row.lines_outside > 0) reasons.push(`${row.lines_outside} of its lines are dated outside its period`);
  if (row.entries_missing > 0)
    reasons.push(`${row.entries_missing} entries dated in its period are not on it`);
  if (cents(row.ledger_at_date) !== cents(row.new_balance))
    reasons.push(
      `new balance ${row.new_balance} vs the ledger's ${row.ledger_at_date} at ${row.statement_date}`,
    );
  return reasons;
}

/** One line per statement, as the doctor prints it. */
export function formatStatementMismatch(m: StatementMismatch): string {
  return `client ${m.clientId} customer ${m.customerId} statement ${m.statementNum} of ${m.statementDate}: ${m.reasons.join("; ")}`;
}
