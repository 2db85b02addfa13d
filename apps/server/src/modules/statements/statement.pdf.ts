import {
  NO_STATEMENTS_TO_COMBINE_MESSAGE,
  combinedStatementsFileName,
  statementFileName,
} from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import type { TenantContext } from "../../http/auth-context.js";
import { nonFieldError, notFound } from "../../http/errors.js";
import type { PdfFile } from "../codes/code-report.pdf.js";
import { loadStatementDocuments } from "./load-statement-documents.js";
import { drawStatement, renderStatementsPdf, type StatementPages } from "./statement-page.pdf.js";
import { collectPdf, newBillDocument, numberPages } from "../invoices/bill-layout.pdf.js";
import { loadBillClient } from "../invoices/bill-parties.js";
import { drawInvoice, loadInvoiceDocument, type InvoiceDocument } from "../invoices/invoice.pdf.js";
import { businessToday } from "../../clock.js";

/** "Statement {statement_num}.pdf", with its pay link when the server knows its public address. */
export async function renderStatementPdf(
  db: Database,
  tenant: TenantContext,
  id: number,
  publicUrl?: string,
): Promise<PdfFile> {
  const [loaded] = await loadStatementDocuments(db, tenant.clientId, [id], { publicUrl });
  if (!loaded) throw notFound();
  const name = statementFileName(loaded.document.statement.statementNum);
  return {
    fileName: name,
    content: await renderStatementsPdf(name.replace(/\.pdf$/, ""), [loaded.document]),
  };
}

/**
 * Every named statement of the client in one PDF, each from a new page, then every named invoice
 * (closed or sent: an open one has no PDF yet). An id that is not the client's is a 404, as a
 * foreign id is everywhere else; leaving it out of the PDF hid the mistake.
 */
export async function renderCombinedStatements(
  db: Database,
  tenant: TenantContext,
  statementIds: readonly number[],
  publicUrl?: string,
  invoiceIds: readonly number[] = [],
): Promise<PdfFile> {
  if (statementIds.length === 0 && invoiceIds.length === 0)
    throw nonFieldError(NO_STATEMENTS_TO_COMBINE_MESSAGE);
  const client = await loadBillClient(db, tenant.clientId);
  const loaded = await loadStatementDocuments(db, tenant.clientId, statementIds, { publicUrl, client });
  if (loaded.length !== new Set(statementIds).size) throw notFound();
  const invoices: InvoiceDocument[] = [];
  for (const id of new Set(invoiceIds)) invoices.push(await loadInvoiceDocument(db, tenant, id, client));
  const name = combinedStatementsFileName(businessToday());
  if (invoices.length === 0) {
    return {
      fileName: name,
      content: await renderStatementsPdf(
        name.replace(/\.pdf$/, ""),
        loaded.map((statement) => statement.document),
      ),
    };
  }
  const doc = newBillDocument(name.replace(/\.pdf$/, ""));
  const ranges: StatementPages[] = [];
  for (const { document } of loaded) {
    if (ranges.length > 0) doc.addPage();
    ranges.push(drawStatement(doc, document));
  }
  for (const invoice of invoices) {
    if (ranges.length > 0) doc.addPage();
    ranges.push(drawInvoice(doc, invoice));
  }
  numberPages(doc, ranges);
  return { fileName: name, content: await collectPdf(doc) };
}
