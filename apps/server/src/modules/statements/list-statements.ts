import { and, asc, count, eq, gte, inArray, isNull, lte, notInArray, sql, type SQL } from "drizzle-orm";
import {
  displayInvoiceNum,
  resolvePaging,
  statementActions,
  type Page,
  type StatementListQuery,
  type StatementDetail,
  type StatementEmail,
  type StatementRecord,
} from "@cyclebill/domain";
import type { Database, Executor } from "../../db/database.js";
import { customers, invoices, statementDeliveries, statementResends, statements } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { notFound } from "../../http/errors.js";
import { ledgerLines } from "../invoices/invoice-output.js";
import { orderByFields } from "../invoices/list-invoices.js";
import type { StatementRow } from "./create-statement.js";
import { booksClosedThrough } from "../ledger/closed-period.js";
import { statementMismatches } from "../ledger/statement-mismatches.js";

// The records are declared once, in the domain, for the server and the web alike.
export type StatementOutput = StatementRecord;
export type { StatementDetail };

export const statementOrderingFields = {
  id: statements.id,
  statement_num: statements.statementNum,
  invoice_num: statements.statementNum,
  statement_date: statements.statementDate,
  invoice_date: statements.statementDate,
  invoice_status: statements.invoiceStatus,
  customer_id: statements.customerId,
  customer_name: customers.customerName,
  customer_no: customers.customerNo,
  new_balance: statements.newBalance,
  created: statements.createdAt,
} as const;

const selection = {
  statement: statements,
  customerName: customers.customerName,
  customerNo: customers.customerNo,
  customerEmail: customers.email,
  email: {
    status: statementDeliveries.status,
    recipient: statementDeliveries.recipient,
    attempts: statementDeliveries.attempts,
    error: statementDeliveries.lastError,
    sent: statementDeliveries.sentAt,
  },
  queuedForPool: sql<boolean>`exists (select 1 from statement_resends r
    where r.client_id = ${statements.clientId} and r.statement_id = ${statements.id}
      and r.channel = 'pool' and r.pool_id is null)`.mapWith(Boolean),
};
/** The statement's email, if it went by email. */
const emailJoin = and(
  eq(statementDeliveries.clientId, statements.clientId),
  eq(statementDeliveries.statementId, statements.id),
  eq(statementDeliveries.channel, "email"),
) as SQL;
const customerJoin = and(
  eq(customers.clientId, statements.clientId),
  eq(customers.id, statements.customerId),
) as SQL;

type SelectionRow = {
  statement: StatementRow;
  customerName: string;
  customerNo: number;
  customerEmail: string;
  email: {
    status: StatementEmail["status"];
    recipient: string;
    attempts: number;
    error: string | null;
    sent: Date | null;
  } | null;
  queuedForPool: boolean;
};

/** What a statement's actions and proof depend on beyond its row. */
export type StatementContext = {
  /** Statements of these rows that do not prove themselves (statementMismatches). */
  failing: ReadonlySet<number>;
  closedThrough: string | null;
};

/** The context of these rows: the doctor's verdict on their customers' statements, the closed date. */
export async function statementContext(
  db: Executor,
  clientId: number,
  customerIds: readonly number[],
): Promise<StatementContext> {
  const unique = [...new Set(customerIds)];
  const failing = unique.length === 0 ? [] : await statementMismatches(db, { clientId, customerIds: unique });
  return {
    failing: new Set(failing.map((row) => row.statementId)),
    closedThrough: await booksClosedThrough(db, clientId),
  };
}

function statementToApi(
  { statement, customerName, customerNo, customerEmail, email, queuedForPool }: SelectionRow,
  context: StatementContext,
): StatementOutput {
  const replaced = statement.replacedById !== null;
  const proves = replaced || !context.failing.has(statement.id);
  return {
    id: statement.id,
    document: "statement",
    statement_num: statement.statementNum,
    invoice_num: statement.statementNum,
    statement_date: statement.statementDate,
    invoice_date: statement.statementDate,
    created: statement.createdAt.toISOString(),
    customer: statement.customerId,
    customer_id: statement.customerId,
    customer_name: customerName,
    customer_no: customerNo,
    client: statement.clientId,
    client_id: statement.clientId,
    invoice_status: statement.invoiceStatus,
    delivery: statement.delivery,
    pool: statement.poolId,
    production_run: statement.productionRunId,
    pages: statement.pages,
    email: email && { ...email, sent: email.sent?.toISOString() ?? null },
    previous_balance: statement.previousBalance,
    charges: statement.charges,
    payments: statement.payments,
    credit_adjustments: statement.creditAdjustments,
    debit_adjustments: statement.debitAdjustments,
    late_fees: statement.lateFees,
    new_balance: statement.newBalance,
    current_balance: statement.currentBalance,
    overdue_30_days: statement.overdue30Days,
    overdue_60_days: statement.overdue60Days,
    overdue_90_days: statement.overdue90Days,
    overdue_over_90_days: statement.overdueOver90Days,
    version: statement.version,
    replaced_by: statement.replacedById,
    corrected_on: statement.correctedOn,
    proves,
    queued_for_pool: queuedForPool,
    actions: statementActions({
      status: statement.invoiceStatus,
      replaced,
      proves,
      periodClosed: context.closedThrough !== null && context.closedThrough >= statement.statementDate,
      statementDate: statement.statementDate,
      queuedForPool,
      hasEmail: customerEmail.trim() !== "",
    }),
  };
}

/**
 * Statements of the client, filtered by customer and statement date, newest first by default;
 * `proves=false` keeps the current versions that no longer prove themselves (the lead's work queue),
 * `proves=true` the others.
 */
export async function listStatements(
  db: Database,
  tenant: TenantContext,
  query: StatementListQuery,
): Promise<Page<StatementOutput>> {
  const orderBy = orderByFields(statementOrderingFields, query.ordering ?? "-statement_date");
  const conditions: SQL[] = [eq(statements.clientId, tenant.clientId)];
  if (query.customer_id !== undefined) conditions.push(eq(statements.customerId, query.customer_id));
  if (query.proves !== undefined) {
    // The doctor's check over the client's (or the one customer's) statements: one query.
    const failing = (
      await statementMismatches(db, {
        clientId: tenant.clientId,
        customerIds: query.customer_id === undefined ? undefined : [query.customer_id],
      })
    ).map((row) => row.statementId);
    if (query.proves === false)
      conditions.push(isNull(statements.replacedById), inArray(statements.id, [0, ...failing]));
    else if (failing.length > 0) conditions.push(notInArray(statements.id, failing));
  }
  if (query.start_date) conditions.push(gte(statements.statementDate, query.start_date));
  if (query.end_date) conditions.push(lte(statements.statementDate, query.end_date));
  const where = and(...conditions);
  const { limit, offset } = resolvePaging(query);
  const [rows, totals] = await Promise.all([
    db
      .select(selection)
      .from(statements)
      .innerJoin(customers, customerJoin)
      .leftJoin(statementDeliveries, emailJoin)
      .where(where)
      .orderBy(...orderBy, asc(statements.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(statements).where(where),
  ]);
  const context = await statementContext(
    db,
    tenant.clientId,
    rows.map((row) => row.statement.customerId),
  );
  return {
    count: Number(totals[0]?.total ?? 0),
    results: rows.map((row) => statementToApi(row, context)),
  };
}

/** One statement with the entries and invoices it carried. */
export async function getStatement(
  db: Executor,
  tenant: TenantContext,
  id: number,
): Promise<StatementDetail> {
  const [row] = await db
    .select(selection)
    .from(statements)
    .innerJoin(customers, customerJoin)
    .leftJoin(statementDeliveries, emailJoin)
    .where(and(eq(statements.clientId, tenant.clientId), eq(statements.id, id)))
    .limit(1);
  if (!row) throw notFound();
  const carried = await db
    .select({ id: invoices.id, invoiceNum: invoices.invoiceNum, invoiceDate: invoices.invoiceDate })
    .from(invoices)
    .where(and(eq(invoices.clientId, tenant.clientId), eq(invoices.statementId, id)))
    .orderBy(asc(invoices.invoiceNum));
  const resends = await db
    .select()
    .from(statementResends)
    .where(and(eq(statementResends.clientId, tenant.clientId), eq(statementResends.statementId, id)))
    .orderBy(sql`${statementResends.id} desc`);
  return {
    ...statementToApi(row, await statementContext(db, tenant.clientId, [row.statement.customerId])),
    resends: resends.map((resend) => ({
      id: resend.id,
      statement_id: resend.statementId,
      channel: resend.channel,
      status: resend.status,
      recipient: resend.recipient,
      pool: resend.poolId,
      error: resend.lastError,
      created: resend.createdAt.toISOString(),
      sent: resend.sentAt?.toISOString() ?? null,
    })),
    transactions: await ledgerLines(db, tenant, { statementId: id }),
    invoices: carried.map((invoice) => ({
      id: invoice.id,
      invoice_num: displayInvoiceNum(invoice.invoiceNum),
      invoice_date: invoice.invoiceDate,
    })),
  };
}
