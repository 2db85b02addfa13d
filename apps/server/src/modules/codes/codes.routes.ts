import { integerParam, recordQuerySchema } from "@cyclebill/domain";
import { z } from "zod";
import { sendDownload } from "../../http/send-file.js";
import { registerTenantResource } from "../../http/tenant-resource-routes.js";
import { defineRoute, type Router } from "../../http/router.js";
import { codeMassUpdateSchema } from "./code-mass-update.schema.js";
import { renderCodeReport } from "./code-report.pdf.js";
import { codeOutputSchema, codesResource } from "./codes.resource.js";
import { findCodeMatches, massUpdateCodes } from "./manage-codes.js";

const pageOfCodes = z.object({ count: z.number().int(), results: z.array(codeOutputSchema) });

export function registerCodeRoutes(router: Router): void {
  const { db } = router.deps;

  defineRoute(router, {
    name: "massUpdateCodes",
    method: "POST",
    url: "/api/codes/mass-update/",
    summary:
      "Mass edit: set code_type and/or taxable on selected codes (all or nothing; empty code_type ignored)",
    tags: ["Bill codes"],
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: codeMassUpdateSchema,
    response: pageOfCodes,
    handle: async ({ body, tenant }) => massUpdateCodes(db, tenant, body),
  });

  registerTenantResource(router, codesResource);

  defineRoute(router, {
    name: "searchCodes",
    method: "GET",
    url: "/api/typeahead/codes/",
    summary: "Code typeahead: up to 100 of the client's codes above 0 matching a number or description",
    tags: ["Bill codes"],
    access: "tenant",
    query: z.looseObject({
      client_id: integerParam({ min: 1 }).optional(),
      query: z.string().max(200).default(""),
    }),
    response: pageOfCodes,
    handle: async ({ query, tenant }) => findCodeMatches(db, tenant, query.query),
  });

  defineRoute(router, {
    name: "getCodeReportPdf",
    method: "GET",
    url: "/api/pdf/code-report/",
    summary: "Codes Report PDF: codes with type, taxable, month- and year-to-date totals",
    tags: ["Bill codes"],
    access: "tenant",
    query: recordQuerySchema,
    produces: "application/pdf",
    handle: async ({ reply, tenant }) =>
      sendDownload(reply, await renderCodeReport(db, tenant), "application/pdf"),
  });
}
