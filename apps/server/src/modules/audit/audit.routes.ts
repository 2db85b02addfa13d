import { auditListQuerySchema, auditPageSchema } from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import { sendDownload } from "../../http/send-file.js";
import { auditCsv, listAuditEvents } from "./list-audit.js";

const tags = ["Audit"];

export function registerAuditRoutes(router: Router): void {
  const { db } = router.deps;

  defineRoute(router, {
    name: "listAuditEvents",
    method: "GET",
    url: "/api/audit/",
    summary:
      "The audit trail, newest first: who, when, from where, what and each field before and after. Provider admins read every client's (client_id picks one), owners their own client's; staff get 403. Filters: record_kind, record_id, customer_id, action, actor (user id or part of a name), from and to (business dates); format=csv downloads every matching row, one line per changed field",
    tags,
    access: "user",
    query: auditListQuerySchema,
    response: auditPageSchema,
    handle: async ({ auth, query, reply }) => {
      if (query.format !== "csv") return listAuditEvents(db, auth, query);
      await sendDownload(reply, await auditCsv(db, auth, query), "text/csv; charset=utf-8");
      return reply;
    },
  });
}
