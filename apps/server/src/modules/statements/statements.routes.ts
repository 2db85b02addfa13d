import {
  combineStatementsSchema,
  pageSchema,
  recordIdParamsSchema,
  recordQuerySchema,
  statementDetailSchema,
  statementListQuerySchema,
  statementRecordSchema,
  statementResendSchema,
} from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import { sendDownload } from "../../http/send-file.js";
import { getStatement, listStatements } from "./list-statements.js";
import { reopenStatement } from "./reopen-statement.js";
import { reissueStatement } from "./reissue-statement.js";
import { queueStatementReprint, resendStatementEmail } from "../delivery/statement-resends.js";
import { renderCombinedStatements, renderStatementPdf } from "./statement.pdf.js";

const tags = ["Statements"];

export function registerStatementRoutes(router: Router): void {
  const { db, config, mailer } = router.deps;

  defineRoute(router, {
    name: "listStatements",
    method: "GET",
    url: "/api/statements/",
    summary:
      "Statements of the client: customer_id, start_date and end_date (on statement_date), proves (false: the current versions that no longer prove themselves), paging, ordering",
    tags,
    access: "tenant",
    query: statementListQuerySchema,
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

  defineRoute(router, {
    name: "reissueStatement",
    method: "POST",
    url: "/api/statements/:id/reissue/",
    summary:
      "Reissue a statement that no longer proves itself: a corrected version with the same number (201 with it); the old one is kept, replaced. Once the books are closed again through its date",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: statementDetailSchema,
    successStatus: 201,
    handle: async ({ params, tenant }) => reissueStatement(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "resendStatementEmail",
    method: "POST",
    url: "/api/statements/:id/resend_email/",
    summary:
      "Email the statement again to the customer: one email per request, answered with its record (status sent, or failed with the mail server's answer)",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: statementResendSchema,
    successStatus: 201,
    handle: async ({ params, tenant }) =>
      resendStatementEmail(db, { mailer, publicUrl: config.publicUrl }, tenant, params.id),
  });

  defineRoute(router, {
    name: "addStatementToPool",
    method: "POST",
    url: "/api/statements/:id/add_to_pool/",
    summary:
      "Queue the statement for the client's next print pool (a reprint; printed once, in the next pool made for the client)",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: statementResendSchema,
    successStatus: 201,
    handle: async ({ params, tenant }) => queueStatementReprint(db, tenant, params.id),
  });
}
