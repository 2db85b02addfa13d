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
import { renderStatementsPdf } from "./statement-page.pdf.js";
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
 * Every named statement of the client in one PDF, each from a new page. An id that is not one of
 * the client's statements is a 404, as a foreign id is everywhere else; leaving it out of the PDF
 * hid the mistake.
 */
export async function renderCombinedStatements(
  db: Database,
  tenant: TenantContext,
  statementIds: readonly number[],
  publicUrl?: string,
): Promise<PdfFile> {
  if (statementIds.length === 0) throw nonFieldError(NO_STATEMENTS_TO_COMBINE_MESSAGE);
  const loaded = await loadStatementDocuments(db, tenant.clientId, statementIds, { publicUrl });
  if (loaded.length !== new Set(statementIds).size) throw notFound();
  const name = combinedStatementsFileName(businessToday());
  return {
    fileName: name,
    content: await renderStatementsPdf(
      name.replace(/\.pdf$/, ""),
      loaded.map((statement) => statement.document),
    ),
  };
}
