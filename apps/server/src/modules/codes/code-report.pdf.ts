import { and, asc, eq, sql } from "drizzle-orm";
import { CODE_TYPE_LABELS, fiscalYearStart, formatUsd, monthStart } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { clients, codes, transactions } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { renderTableReport } from "../reports/table-report.pdf.js";
import { businessToday } from "../../clock.js";

export type PdfFile = { fileName: string; content: Buffer };

/** The Codes Report: every code with type, taxable and month- and year-to-date totals from the ledger. */
export async function renderCodeReport(
  db: Database,
  tenant: TenantContext,
  asOf = businessToday(),
): Promise<PdfFile> {
  const [client] = await db
    .select({
      name: clients.clientName,
      clientNo: clients.clientNo,
      resetMonth: clients.fiscalYearResetMonth,
    })
    .from(clients)
    .where(eq(clients.id, tenant.clientId));
  const fromMonth = monthStart(asOf);
  const fromYear = fiscalYearStart(asOf, client?.resetMonth ?? 1);
  const rows = await db
    .select({
      code: codes.code,
      description: codes.description,
      codeType: codes.codeType,
      taxable: codes.taxable,
      mtd: sql<string>`coalesce(sum(${transactions.amount}) filter (where ${transactions.serviceDate} >= ${fromMonth}::date and ${transactions.serviceDate} <= ${asOf}::date), 0)::numeric(14,2)::text`,
      ytd: sql<string>`coalesce(sum(${transactions.amount}) filter (where ${transactions.serviceDate} >= ${fromYear}::date and ${transactions.serviceDate} <= ${asOf}::date), 0)::numeric(14,2)::text`,
    })
    .from(codes)
    .leftJoin(transactions, and(eq(transactions.clientId, codes.clientId), eq(transactions.codeId, codes.id)))
    .where(eq(codes.clientId, tenant.clientId))
    .groupBy(codes.id, codes.code, codes.description, codes.codeType, codes.taxable)
    .orderBy(asc(codes.code));
  const content = await renderTableReport({
    title: "Codes Report",
    subtitle: [
      `${client?.name ?? ""} (client ${client?.clientNo ?? ""})`,
      `As of ${asOf}. This month from ${fromMonth}; year to date from ${fromYear} (fiscal year).`,
    ],
    columns: [
      { header: "Code", width: 50, align: "right" },
      { header: "Description", width: 190 },
      { header: "Type", width: 100 },
      { header: "Taxable", width: 50, align: "center" },
      { header: "This month", width: 70, align: "right" },
      { header: "Year to date", width: 72, align: "right" },
    ],
    rows: rows.map((row) => [
      String(row.code),
      row.description,
      CODE_TYPE_LABELS[row.codeType],
      row.taxable ? "Yes" : "No",
      formatUsd(row.mtd),
      formatUsd(row.ytd),
    ]),
    emptyText: "This client has no bill codes yet.",
  });
  return { fileName: `Codes Report ${asOf}.pdf`, content };
}
