import { and, asc, count, eq, gte, lte, type SQL } from "drizzle-orm";
import {
  displayInvoiceNum,
  resolvePaging,
  statementActions,
  type DocumentListQuery,
  type Page,
  type StatementDetail,
  type StatementEmail,
  type StatementRecord,
} from "@cyclebill/domain";
import type { Database, Executor } from "../../db/database.js";
import { customers, invoices, statementDeliveries, statements } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { notFound } from "../../http/errors.js";
import { ledgerLines } from "../invoices/invoice-output.js";
import { orderByFields } from "../invoices/list-invoices.js";
import type { StatementRow } from "./create-statement.js";

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
  email: {
    status: statementDeliveries.status,
    recipient: statementDeliveries.recipient,
    attempts: statementDeliveries.attempts,
    error: statementDeliveries.lastError,
    sent: statementDeliveries.sentAt,
  },
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
  email: {
    status: StatementEmail["status"];
    recipient: string;
    attempts: number;
    error: string | null;
    sent: Date | null;
  } | null;
};

function statementToApi({ statement, customerName, customerNo, email }: SelectionRow): StatementOutput {
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
    actions: statementActions({ status: statement.invoiceStatus }),
  };
}

/** Statements of the client, filtered by customer and statement date, newest first by default. */
export async function listStatements(
  db: Database,
  tenant: TenantContext,
  query: DocumentListQuery,
): Promise<Page<StatementOutput>> {
  const orderBy = orderByFields(statementOrderingFields, query.ordering ?? "-statement_date");
  const conditions: SQL[] = [eq(statements.clientId, tenant.clientId)];
  if (query.customer_id !== undefined) conditions.push(eq(statements.customerId, query.customer_id));
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
  return { count: Number(totals[0]?.total ?? 0), results: rows.map(statementToApi) };
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
  return {
    ...statementToApi(row),
    transactions: await ledgerLines(db, tenant, { statementId: id }),
    invoices: carried.map((invoice) => ({
      id: invoice.id,
      invoice_num: displayInvoiceNum(invoice.invoiceNum),
      invoice_date: invoice.invoiceDate,
    })),
  };
}
