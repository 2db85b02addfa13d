import { accountReportParamsSchema, accountReportQuerySchema } from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import { sendStreamedDownload } from "../../http/send-file.js";
import { accountRegisterDownload, accountTotalsDownload } from "./account-reports.js";

const tags = ["Reports"];

export function registerAccountReportRoutes(router: Router): void {
  const { db } = router.deps;

  defineRoute(router, {
    name: "getAccountRegisterPdf",
    method: "GET",
    url: "/api/pdf/account-register/:client/:year_month",
    summary:
      "Account Register of a month (YYYY-MM): each customer's opening balance, entries and closing balance, then totals by code type; ?format=csv for CSV. 400 'Invalid Month' for a month not 1-12 or a malformed year",
    tags,
    access: "tenant",
    clientIdFrom: ({ params }) => params.client,
    params: accountReportParamsSchema,
    query: accountReportQuerySchema,
    produces: "application/pdf",
    handle: async ({ params, query, reply, tenant }) =>
      sendStreamedDownload(reply, await accountRegisterDownload(db, tenant, params.year_month, query.format)),
  });

  defineRoute(router, {
    name: "getAccountTotalsPdf",
    method: "GET",
    url: "/api/pdf/account-totals/:client/:year_month",
    summary:
      "Account Totals of a month (YYYY-MM): opening receivables, each code's count and total by code type, closing receivables and their ageing, customers and statements; ?format=csv for CSV",
    tags,
    access: "tenant",
    clientIdFrom: ({ params }) => params.client,
    params: accountReportParamsSchema,
    query: accountReportQuerySchema,
    produces: "application/pdf",
    handle: async ({ params, query, reply, tenant }) =>
      sendStreamedDownload(reply, await accountTotalsDownload(db, tenant, params.year_month, query.format)),
  });
}
