import {
  closedPeriodSchema,
  closePeriodSchema,
  reopenPeriodSchema,
  clientCreateSchema,
  clientUpdateRequestSchema,
  listQuerySchema,
  recordIdParamsSchema,
} from "@cyclebill/domain";
import { z } from "zod";
import { defineRoute, type Router } from "../../http/router.js";
import { closePeriod, getClosedPeriod, reopenPeriod } from "../ledger/closed-period.js";
import { getClientHoldings } from "./client-holdings.js";
import { getClient, listClients } from "./list-clients.js";
import { createClient, deleteClient, updateClient } from "./manage-clients.js";
import { withAuditReason } from "../audit/audit-context.js";

const clientSchema = z.looseObject({
  id: z.number().int(),
  client_no: z.number().int(),
  client_name: z.string(),
  has_blue_pay_key: z.boolean(),
});

export function registerClientRoutes(router: Router): void {
  const { db, config } = router.deps;

  defineRoute(router, {
    name: "listClients",
    method: "GET",
    url: "/api/clients/",
    summary:
      "Clients: every client for admins, the user's own client otherwise; query matches name or number",
    tags: ["Clients"],
    access: "user",
    query: listQuerySchema.extend({ query: z.string().max(200).optional() }),
    response: z.object({ count: z.number().int(), results: z.array(clientSchema) }),
    handle: ({ query, auth }) => listClients(db, auth, query),
  });

  defineRoute(router, {
    name: "getClient",
    method: "GET",
    url: "/api/clients/:id/",
    summary: "One client (admins: any; others: their own)",
    tags: ["Clients"],
    access: "user",
    params: recordIdParamsSchema,
    response: clientSchema,
    handle: ({ params, auth }) => getClient(db, auth, params.id),
  });

  defineRoute(router, {
    name: "createClient",
    method: "POST",
    url: "/api/clients/",
    summary: "Add a client (admins); only the name is required, the number continues from the highest",
    tags: ["Clients"],
    access: "admin",
    body: clientCreateSchema,
    response: clientSchema,
    successStatus: 201,
    handle: ({ body, auth }) => createClient(db, auth, config.secretsKey, body),
  });

  defineRoute(router, {
    name: "updateClient",
    method: "PUT",
    url: "/api/clients/:id/",
    summary:
      "Save the client editor (full body). Rates change for admins only; bluepay_secret_key is write-only.",
    tags: ["Clients"],
    access: "user",
    params: recordIdParamsSchema,
    body: clientUpdateRequestSchema,
    response: clientSchema,
    handle: ({ params, body: { change_reason: reason, ...body }, auth }) =>
      withAuditReason(reason, () => updateClient(db, auth, config.secretsKey, params.id, body)),
  });

  defineRoute(router, {
    name: "deleteClient",
    method: "DELETE",
    url: "/api/clients/:id/",
    summary:
      "Delete a client and everything it owns (admins); 409 naming what it holds when it has any ledger entry, statement or payment (make it inactive instead)",
    tags: ["Clients"],
    access: "admin",
    params: recordIdParamsSchema,
    successStatus: 204,
    handle: ({ params, auth }) => deleteClient(db, auth, params.id),
  });

  defineRoute(router, {
    name: "getClosedPeriod",
    method: "GET",
    url: "/api/clients/:id/closed-period/",
    summary: "The client's books closed-through date and its history: runs closing, reopens, closes (admins)",
    tags: ["Clients"],
    access: "admin",
    params: recordIdParamsSchema,
    response: closedPeriodSchema,
    handle: ({ params }) => getClosedPeriod(db, params.id),
  });

  defineRoute(router, {
    name: "reopenClosedPeriod",
    method: "POST",
    url: "/api/clients/:id/closed-period/reopen/",
    summary:
      "Reopen the client's closed period with a reason (admins); closed_through: the date it stays closed through (default: before the last close; null: all open)",
    tags: ["Clients"],
    access: "admin",
    params: recordIdParamsSchema,
    body: reopenPeriodSchema,
    response: closedPeriodSchema,
    handle: ({ params, body, auth }) => reopenPeriod(db, auth.user, params.id, body),
  });

  defineRoute(router, {
    name: "closeClosedPeriod",
    method: "POST",
    url: "/api/clients/:id/closed-period/close/",
    summary:
      "Close the client's books again (admins): through closed_through, default the date closed before the last reopen",
    tags: ["Clients"],
    access: "admin",
    params: recordIdParamsSchema,
    body: closePeriodSchema,
    response: closedPeriodSchema,
    handle: ({ params, body, auth }) => closePeriod(db, auth.user, params.id, body),
  });

  defineRoute(router, {
    name: "getClientHoldings",
    method: "GET",
    url: "/api/clients/:id/holdings/",
    summary:
      "What a client holds (admins): customers, ledger entries, statements, payments; whether it may be deleted and, if not, why",
    tags: ["Clients"],
    access: "admin",
    params: recordIdParamsSchema,
    response: z.object({
      customers: z.number().int(),
      ledger_entries: z.number().int(),
      statements: z.number().int(),
      payments: z.number().int(),
      deletable: z.boolean(),
      refusal: z.string().nullable(),
    }),
    handle: ({ params, auth }) => getClientHoldings(db, auth, params.id),
  });
}
