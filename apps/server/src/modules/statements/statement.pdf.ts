import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import {
  NO_STATEMENTS_TO_COMBINE_MESSAGE,
  combinedStatementsFileName,
  statementFileName,
} from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { codes, customers, statements, transactions } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { nonFieldError, notFound } from "../../http/errors.js";
import type { PdfFile } from "../codes/code-report.pdf.js";
import { billCustomer, loadBillClient } from "../invoices/bill-layout.pdf.js";
import { renderStatementsPdf, type StatementDocument } from "./statement-page.pdf.js";
import { businessToday } from "../../clock.js";

function dayAfter(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** The client's statements with these ids, in the order asked (ids not the client's are left out). */
async function loadStatementDocuments(
  db: Database,
  tenant: TenantContext,
  ids: readonly number[],
): Promise<StatementDocument[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await db
    .select({ statement: statements, customer: customers })
    .from(statements)
    .innerJoin(
      customers,
      and(eq(customers.clientId, statements.clientId), eq(customers.id, statements.customerId)),
    )
    .where(and(eq(statements.clientId, tenant.clientId), inArray(statements.id, unique)));
  if (rows.length === 0) return [];
  const client = await loadBillClient(db, tenant.clientId);
  const byId = new Map(rows.map((row) => [row.statement.id, row]));
  const documents: StatementDocument[] = [];
  for (const id of unique) {
    const row = byId.get(id);
    if (!row) continue;
    const { statement } = row;
    const [previous] = await db
      .select({ date: sql<string | null>`max(${statements.statementDate})::text` })
      .from(statements)
      .where(
        and(
          eq(statements.clientId, tenant.clientId),
          eq(statements.customerId, statement.customerId),
          lt(statements.id, statement.id),
        ),
      );
    const lines = await db
      .select({
        serviceDate: transactions.serviceDate,
        code: codes.code,
        codeType: codes.codeType,
        description: transactions.description,
        quantity: transactions.quantity,
        rate: transactions.rate,
        ledgerAmount: transactions.ledgerAmount,
        voided: transactions.voided,
      })
      .from(transactions)
      .innerJoin(codes, and(eq(codes.clientId, transactions.clientId), eq(codes.id, transactions.codeId)))
      .where(and(eq(transactions.clientId, tenant.clientId), eq(transactions.statementId, statement.id)))
      .orderBy(asc(transactions.serviceDate), asc(transactions.id));
    documents.push({
      client,
      customer: billCustomer(row.customer),
      statement,
      periodStart: previous?.date ? dayAfter(previous.date) : null,
      lines,
    });
  }
  return documents;
}

/** "Statement {statement_num}.pdf". */
export async function renderStatementPdf(db: Database, tenant: TenantContext, id: number): Promise<PdfFile> {
  const [document] = await loadStatementDocuments(db, tenant, [id]);
  if (!document) throw notFound();
  const name = statementFileName(document.statement.statementNum);
  return { fileName: name, content: await renderStatementsPdf(name.replace(/\.pdf$/, ""), [document]) };
}

/**
 * Every named statement of the client in one PDF, each from a new page. An id that is not one of
 * the client's statements is a 404, as a foreign id is everywhere else; leaving it out of the PDF
 * hid the mistake.
 */
export async function renderCombinedStatements(
  db: Database,
  tenant: TenantContext,
  statementIds: readonly number[],
): Promise<PdfFile> {
  if (statementIds.length === 0) throw nonFieldError(NO_STATEMENTS_TO_COMBINE_MESSAGE);
  const documents = await loadStatementDocuments(db, tenant, statementIds);
  if (documents.length !== new Set(statementIds).size) throw notFound();
  const name = combinedStatementsFileName(businessToday());
  return { fileName: name, content: await renderStatementsPdf(name.replace(/\.pdf$/, ""), documents) };
}
