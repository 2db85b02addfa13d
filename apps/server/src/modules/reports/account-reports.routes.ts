import { accountReportParamsSchema, accountReportQuerySchema } from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import { sendStreamedDownload } from "../../http/send-file.js";
import { accountRegisterDownload, accountTotalsDownload } from "./account-reports.js";

const tags = ["Reports"];

export function registerAccountReportRoutes(router: Router): void {
  const { db } = router.deps;

  /** A month's report of the client named in the path, streamed as PDF (or CSV with ?format=csv). */
  const defineMonthReport = (
    name: string,
    url: string,
    summary: string,
    download: typeof accountRegisterDownload,
  ) =>
    defineRoute(router, {
      name,
      method: "GET",
      url,
      summary,
      tags,
      access: "tenant",
      clientIdFrom: ({ params }) => params.client,
      params: accountReportParamsSchema,
      query: accountReportQuerySchema,
      produces: "application/pdf",
      handle: async ({ params, query, reply, tenant }) =>
        sendStreamedDownload(reply, await download(db, tenant, params.year_month, query.format)),
    });

  defineMonthReport(
    "getAccountRegisterPdf",
    "/api/pdf/account-register/:client/:year_month",
    "Account Register of a month (YYYY-MM): each customer's opening balance, entries and closing balance, then totals by code type; ?format=csv for CSV. 400 'Invalid Month' for a month not 1-12 or a malformed year",
    accountRegisterDownload,
  );
  defineMonthReport(
    "getAccountTotalsPdf",
    "/api/pdf/account-totals/:client/:year_month",
    "Account Totals of a month (YYYY-MM): opening receivables, each code's count and total by code type, closing receivables and their ageing, customers and statements; ?format=csv for CSV",
    accountTotalsDownload,
  );
}
