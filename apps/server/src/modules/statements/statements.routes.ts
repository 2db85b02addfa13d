import {
  combineStatementsSchema,
  documentListQuerySchema,
  recordIdParamsSchema,
  recordQuerySchema,
} from "@cyclebill/domain";
import { z } from "zod";
import { clientIdInBody } from "../../http/client-id-in-body.js";
import { defineRoute, type Router } from "../../http/router.js";
import { sendDownload } from "../../http/send-file.js";
import { resolveTenant } from "../tenancy/resolve-tenant.js";
import { getStatement, listStatements } from "./list-statements.js";
import { reopenStatement } from "./reopen-statement.js";
import { renderCombinedStatements, renderStatementPdf } from "./statement.pdf.js";

const tags = ["Statements"];
const statementSchema = z.looseObject({
  id: z.number().int(),
  statement_num: z.number().int(),
  statement_date: z.string(),
  invoice_date: z.string(),
  customer: z.number().int(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  invoice_status: z.enum(["open", "closed", "processed"]),
  new_balance: z.string(),
});

export function registerStatementRoutes(router: Router): void {
  const { db } = router.deps;

  defineRoute(router, {
    method: "GET",
    url: "/api/statements/",
    summary:
      "Statements of the client: customer_id, start_date and end_date (on statement_date), paging, ordering",
    tags,
    access: "user",
    query: documentListQuerySchema,
    response: z.object({ count: z.number().int(), results: z.array(statementSchema) }),
    handle: async ({ query, auth }) =>
      listStatements(db, await resolveTenant(db, auth, query.client_id), query),
  });

  defineRoute(router, {
    method: "POST",
    url: "/api/statements/combine/",
    summary:
      "One PDF with every named statement, each from a new page ('No statements to combine' when none)",
    tags,
    access: "user",
    query: recordQuerySchema,
    body: combineStatementsSchema,
    produces: "application/pdf",
    handle: async ({ query, body, auth, request, reply }) =>
      sendDownload(
        reply,
        await renderCombinedStatements(
          db,
          await resolveTenant(db, auth, query.client_id ?? clientIdInBody(request.body)),
          body.statement_ids,
        ),
        "application/pdf",
      ),
  });

  defineRoute(router, {
    method: "GET",
    url: "/api/statements/:id/",
    summary: "One statement with the transactions and invoices it carried",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: statementSchema,
    handle: async ({ params, query, auth }) =>
      getStatement(db, await resolveTenant(db, auth, query.client_id), params.id),
  });

  defineRoute(router, {
    method: "POST",
    url: "/api/statements/:id/reopen/",
    summary: "Reopen a processed statement (its figures and invoices stay as sent)",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: statementSchema,
    handle: async ({ params, query, auth, request }) =>
      reopenStatement(
        db,
        await resolveTenant(db, auth, query.client_id ?? clientIdInBody(request.body)),
        params.id,
      ),
  });

  defineRoute(router, {
    method: "GET",
    url: "/api/statements/:id/pdf/",
    summary: "The statement PDF, named Statement {statement_num}.pdf",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    produces: "application/pdf",
    handle: async ({ params, query, auth, reply }) =>
      sendDownload(
        reply,
        await renderStatementPdf(db, await resolveTenant(db, auth, query.client_id), params.id),
        "application/pdf",
      ),
  });
}
