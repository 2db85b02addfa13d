import { and, eq, sql } from "drizzle-orm";
import { statementActionRefusal, usDate } from "@cyclebill/domain";
import { z } from "zod";
import { businessToday } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal } from "../../db/row-schemas.js";
import { statements } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { nonFieldError, notFound } from "../../http/errors.js";
import { recordChange } from "../audit/record-change.js";
import { moveStatementInvoices } from "../invoices/statement-invoices.js";
import { booksClosedThrough } from "../ledger/closed-period.js";
import { lockCustomers } from "../ledger/lock-customers.js";
import { rebillStatement } from "../ledger/rebill-statement.js";
import { statementMismatches } from "../ledger/statement-mismatches.js";
import { ageCustomerBalances } from "../summary/customer-ageing.queries.js";
import { getStatement, type StatementDetail } from "./list-statements.js";
import { isNewerStatement, newestStatementFirst } from "./newer-statement.sql.js";
import { boxesOfCorrectedStatement } from "./statement-boxes.js";
import { snapshotOf } from "./write-statements.js";

const priorRowSchema = z.object({ statement_date: dbDate, new_balance: dbDecimal });

/**
 * Reissues a statement that no longer proves itself (its period was reopened and changed): a new
 * version with the same number and date, marked corrected today, whose boxes, lines and ageing are
 * made again by the run's own rules (statementBoxes over its period's entries now, the ageing as of
 * its date); the old version is kept as it was sent and marked replaced. Allowed once the books are
 * closed again through its date (a correction is final), and oldest first (its previous balance is
 * the statement before's new balance). One audit row.
 */
export async function reissueStatement(
  db: Database,
  tenant: TenantContext,
  id: number,
): Promise<StatementDetail> {
  const clientId = tenant.clientId;
  const newId = await db.transaction(async (tx) => {
    const own = and(eq(statements.clientId, clientId), eq(statements.id, id));
    const [found] = await tx.select({ customerId: statements.customerId }).from(statements).where(own);
    if (!found) throw notFound();
    // The customer first, as every path that moves its figures locks it; then the statement row.
    await lockCustomers(tx, clientId, [found.customerId]);
    const [old] = await tx.select().from(statements).where(own).for("update");
    if (!old) throw notFound();
    const closed = await booksClosedThrough(tx, clientId);
    const failing = await statementMismatches(tx, { clientId, customerIds: [old.customerId] });
    const refusal = statementActionRefusal(
      {
        status: old.invoiceStatus,
        replaced: old.replacedById !== null,
        proves: !failing.some((row) => row.statementId === id),
        periodClosed: closed !== null && closed >= old.statementDate,
        statementDate: old.statementDate,
      },
      "reissue",
    );
    if (refusal) throw nonFieldError(refusal);
    const earlier = failing.find(
      (row) =>
        row.statementDate < old.statementDate ||
        (row.statementDate === old.statementDate && row.statementId < id),
    );
    if (earlier)
      throw nonFieldError(
        `Reissue statement ${earlier.statementNum} of ${usDate(earlier.statementDate)} first: this one's previous balance comes from it.`,
      );
    const key = { date: sql`${old.statementDate}::date`, id: sql`${id}::bigint` };
    const [prior] = await queryRows(
      tx,
      sql`select p.statement_date::text as statement_date, p.new_balance::text as new_balance
          from statements p
          where p.client_id = ${clientId} and p.customer_id = ${old.customerId} and p.replaced_by_id is null
            and ${isNewerStatement(key, { date: sql`p.statement_date`, id: sql`p.id` })}
          order by ${newestStatementFirst(sql`p.statement_date`, sql`p.id`)} limit 1`,
      priorRowSchema,
    );
    const newer = await queryRows(
      tx,
      sql`select p.statement_date::text as statement_date, p.new_balance::text as new_balance
          from statements p
          where p.client_id = ${clientId} and p.customer_id = ${old.customerId} and p.replaced_by_id is null
            and ${isNewerStatement({ date: sql`p.statement_date`, id: sql`p.id` }, key)}
          limit 1`,
      priorRowSchema,
    );
    const period = {
      customerId: old.customerId,
      fromStatementId: id,
      priorDate: prior?.statement_date ?? null,
      statementDate: old.statementDate,
    };
    // A first statement keeps the opening balance it was issued with.
    const previousBalance = prior?.new_balance ?? old.previousBalance;
    const boxes = await boxesOfCorrectedStatement(tx, clientId, { ...period, previousBalance });
    const [ageingRow] = await ageCustomerBalances(tx, clientId, old.statementDate, [old.customerId]);
    const ageing = snapshotOf(ageingRow);
    const [inserted] = await tx
      .insert(statements)
      .values({
        clientId,
        statementNum: old.statementNum,
        version: old.version + 1,
        correctedOn: businessToday(),
        customerId: old.customerId,
        statementDate: old.statementDate,
        invoiceStatus: "processed",
        productionRunId: old.productionRunId,
        delivery: old.delivery,
        previousBalance: boxes.previousBalance,
        charges: boxes.charges,
        payments: boxes.payments,
        creditAdjustments: boxes.creditAdjustments,
        debitAdjustments: boxes.debitAdjustments,
        lateFees: boxes.lateFees,
        newBalance: boxes.newBalance,
        ...ageing,
        autopayMethod: old.autopayMethod,
        autopayChargeDate: old.autopayChargeDate,
      })
      .returning({ id: statements.id });
    if (!inserted) throw new Error("corrected statement not written");
    await tx.update(statements).set({ replacedById: inserted.id }).where(own);
    await rebillStatement(tx, clientId, {
      ...period,
      toStatementId: inserted.id,
      latest: newer.length === 0 ? { newBalance: boxes.newBalance, ageing } : null,
    });
    await moveStatementInvoices(tx, clientId, id, inserted.id);
    await recordChange(tx, {
      clientId,
      action: "statement.reissue",
      recordKind: "statement",
      recordId: inserted.id,
      customerId: old.customerId,
      before: { statement_id: id, version: old.version, new_balance: old.newBalance },
      after: { statement_id: inserted.id, version: old.version + 1, new_balance: boxes.newBalance },
      reason: `Corrected statement ${old.statementNum} of ${usDate(old.statementDate)}`,
    });
    return inserted.id;
  });
  return getStatement(db, tenant, newId);
}
