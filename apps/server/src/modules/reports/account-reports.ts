import { Readable } from "node:stream";
import type { ReportMonth } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import type { TenantContext } from "../../http/auth-context.js";
import { businessToday } from "../../clock.js";
import { clientHeading } from "./account-month.queries.js";
import { accountRegisterCsv } from "./account-register.csv.js";
import { accountRegisterPdf, type ReportHeading } from "./account-register.pdf.js";
import { accountTotals } from "./account-totals.js";
import { accountTotalsCsv } from "./account-totals.csv.js";
import { accountTotalsPdf } from "./account-totals.pdf.js";

export type ReportFormat = "pdf" | "csv";
export type ReportDownload = { fileName: string; contentType: string; body: Readable };

const CONTENT_TYPES: Record<ReportFormat, string> = {
  pdf: "application/pdf",
  csv: "text/csv; charset=utf-8",
};

async function headingOf(db: Database, tenant: TenantContext, month: ReportMonth): Promise<ReportHeading> {
  const client = await clientHeading(db, tenant.clientId);
  return { clientName: client.name, clientNo: client.clientNo, month, printedOn: businessToday() };
}

/** Account Register {client no} {YYYY-MM}.pdf (or .csv), streamed as the customers are read. */
export async function accountRegisterDownload(
  db: Database,
  tenant: TenantContext,
  month: ReportMonth,
  format: ReportFormat,
): Promise<ReportDownload> {
  const heading = await headingOf(db, tenant, month);
  return {
    fileName: `Account Register ${heading.clientNo} ${month.label}.${format}`,
    contentType: CONTENT_TYPES[format],
    body:
      format === "pdf"
        ? accountRegisterPdf(db, tenant.clientId, heading)
        : accountRegisterCsv(db, tenant.clientId, month),
  };
}

/** Account Totals {client no} {YYYY-MM}.pdf (or .csv). */
export async function accountTotalsDownload(
  db: Database,
  tenant: TenantContext,
  month: ReportMonth,
  format: ReportFormat,
): Promise<ReportDownload> {
  const [heading, totals] = await Promise.all([
    headingOf(db, tenant, month),
    accountTotals(db, tenant.clientId, month),
  ]);
  return {
    fileName: `Account Totals ${heading.clientNo} ${month.label}.${format}`,
    contentType: CONTENT_TYPES[format],
    body: format === "pdf" ? accountTotalsPdf(totals, heading) : Readable.from([accountTotalsCsv(totals)]),
  };
}
