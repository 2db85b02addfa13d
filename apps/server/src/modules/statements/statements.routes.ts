import {
  combineStatementsSchema,
  documentListQuerySchema,
  pageSchema,
  recordIdParamsSchema,
  recordQuerySchema,
  statementDetailSchema,
  statementRecordSchema,
} from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import { sendDownload } from "../../http/send-file.js";
import { getStatement, listStatements } from "./list-statements.js";
import { reopenStatement } from "./reopen-statement.js";
import { renderCombinedStatements, renderStatementPdf } from "./statement.pdf.js";

const tags = ["Statements"];

export function registerStatementRoutes(router: Router): void {
  const { db, config } = router.deps;

  defineRoute(router, {
    name: "listStatements",
    method: "GET",
    url: "/api/statements/",
    summary:
      "Statements of the client: customer_id, start_date and end_date (on statement_date), paging, ordering",
    tags,
    access: "tenant",
    query: documentListQuerySchema,
    response: pageSchema(statementRecordSchema),
    handle: async ({ query, tenant }) => listStatements(db, tenant, query),
  });

  defineRoute(router, {
    name: "combineStatementPdfs",
    method: "POST",
    url: "/api/statements/combine/",
    summary:
      "One PDF with every named statement, then every named invoice (invoice_ids, not open), each from a new page, of any customers of the client ('No statements to combine' when none)",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: combineStatementsSchema,
    produces: "application/pdf",
    handle: async ({ body, reply, tenant }) =>
      sendDownload(
        reply,
        await renderCombinedStatements(
          db,
          tenant,
          body.statement_ids,
          config.publicUrl,
          body.invoice_ids ?? [],
        ),
        "application/pdf",
      ),
  });

  defineRoute(router, {
    name: "getStatement",
    method: "GET",
    url: "/api/statements/:id/",
    summary: "One statement with the transactions and invoices it carried",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: statementDetailSchema,
    handle: async ({ params, tenant }) => getStatement(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "reopenStatement",
    method: "POST",
    url: "/api/statements/:id/reopen/",
    summary: "Reopen a processed statement (its figures and invoices stay as sent)",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: statementDetailSchema,
    handle: async ({ params, tenant }) => reopenStatement(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "getStatementPdf",
    method: "GET",
    url: "/api/statements/:id/pdf/",
    summary: "The statement PDF, named Statement {statement_num}.pdf",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    produces: "application/pdf",
    handle: async ({ params, reply, tenant }) =>
      sendDownload(
        reply,
        await renderStatementPdf(db, tenant, params.id, config.publicUrl),
        "application/pdf",
      ),
  });
}
