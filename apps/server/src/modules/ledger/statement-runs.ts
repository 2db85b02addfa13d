import { sql, type SQL } from "drizzle-orm";
import { CARRIED_INVOICE_STATUS } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import type { AgeingSnapshot, BilledFigures } from "./statement-period.js";
import { sqlArray } from "./sql-arrays.js";

// The ledger side of making statements (writeStatements, for a run's chunk or one customer): which
// entries a statement bills and which invoices it carries, billing them, and starting the next period.

export type StatementToBill = { customerId: number; statementId: number; statementDate: string };

/**
 * The entries a customer's statement dated `statementDate` bills (on the customer's own ledger,
 * `t`): the domain's statementBillsEntry, those not yet billed dated up to the statement date and
 * nothing later, whatever invoice they are on. One condition for the boxes read before the
 * statement is written, the billing after, and the preview, so they cannot disagree.
 */
export function billedByStatement(statementDate: SQL): SQL {
  return sql`t.statement_id is null and t.service_date <= ${statementDate}`;
}

/**
 * The invoices (`i`) a statement dated `statementDate` carries (statementCarriesInvoice): closed,
 * with no entry dated after the statement, which will bill all of them.
 */
export function carriedByStatement(statementDate: SQL): SQL {
  return sql`i.invoice_status = ${CARRIED_INVOICE_STATUS}
    and not exists (select 1 from transactions x where x.client_id = i.client_id and x.invoice_id = i.id
                    and x.service_date > ${statementDate})`;
}

/** Bills each customer's entries on its statement (billedByStatement). */
export async function billEntriesOnStatements(
  tx: Executor,
  clientId: number,
  items: readonly StatementToBill[],
): Promise<void> {
  if (items.length === 0) return;
  await tx.execute(sql`
    update transactions t set statement_id = s.statement_id
    from unnest(
      ${sqlArray(
        items.map((item) => item.customerId),
        "bigint",
      )},
      ${sqlArray(
        items.map((item) => item.statementId),
        "bigint",
      )},
      ${sqlArray(
        items.map((item) => item.statementDate),
        "date",
      )}
    ) as s(customer_id, statement_id, statement_date)
    -- The id list keeps this to the customers' own entries (an index scan) however large the client:
    -- joined on the unnest alone, the planner may hash the client's whole ledger for every chunk.
    where t.client_id = ${clientId}
      and t.customer_id = any(${sqlArray(
        items.map((item) => item.customerId),
        "bigint",
      )})
      and t.customer_id = s.customer_id and ${billedByStatement(sql`s.statement_date`)}`);
}

export type NextPeriod = {
  customerId: number;
  /** The statement's new balance. */
  previousBalance: string;
  ageing: AgeingSnapshot;
  /** What the statement billed, per month-to-date figure (late fees count in charges). */
  billed: BilledFigures;
};

/**
 * Starts the next billing period of many customers at once (their locks are held): the statement's
 * new balance becomes the previous balance, month-to-date keeps only what the statement did not
 * bill (entries dated after it), the ageing is kept.
 */
export async function startNextPeriods(
  tx: Executor,
  clientId: number,
  items: readonly NextPeriod[],
): Promise<void> {
  if (items.length === 0) return;
  const column = (pick: (item: NextPeriod) => string | number) => items.map(pick);
  await tx.execute(sql`
    update customers c set
      previous_balance = p.previous_balance, mtd_charges = c.mtd_charges - p.charges,
      mtd_payments = c.mtd_payments - p.payments, mtd_cr_adj = c.mtd_cr_adj - p.credit, mtd_db_adj = c.mtd_db_adj - p.debit,
      current_balance = p.current_balance, overdue_30_days = p.overdue_30, overdue_60_days = p.overdue_60,
      overdue_90_days = p.overdue_90, overdue_over_90_days = p.overdue_over_90, updated_at = now()
    from unnest(
      ${sqlArray(
        column((item) => item.customerId),
        "bigint",
      )},
      ${sqlArray(
        column((item) => item.previousBalance),
        "numeric",
      )},
      ${sqlArray(
        column((item) => item.ageing.currentBalance),
        "numeric",
      )},
      ${sqlArray(
        column((item) => item.ageing.overdue30Days),
        "numeric",
      )},
      ${sqlArray(
        column((item) => item.ageing.overdue60Days),
        "numeric",
      )},
      ${sqlArray(
        column((item) => item.ageing.overdue90Days),
        "numeric",
      )},
      ${sqlArray(
        column((item) => item.ageing.overdueOver90Days),
        "numeric",
      )},
      ${sqlArray(
        column((item) => item.billed.charges),
        "numeric",
      )},
      ${sqlArray(
        column((item) => item.billed.payments),
        "numeric",
      )},
      ${sqlArray(
        column((item) => item.billed.creditAdjustments),
        "numeric",
      )},
      ${sqlArray(
        column((item) => item.billed.debitAdjustments),
        "numeric",
      )}
    ) as p(customer_id, previous_balance, current_balance, overdue_30, overdue_60, overdue_90, overdue_over_90,
           charges, payments, credit, debit)
    where c.client_id = ${clientId} and c.id = any(${sqlArray(
      column((item) => item.customerId),
      "bigint",
    )}) and c.id = p.customer_id`);
}
