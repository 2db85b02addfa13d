import { listQuerySchema, recordIdParamsSchema } from "@cyclebill/domain";
import { z } from "zod";
import { defineRoute, type Router } from "../../http/router.js";
import { getClient, listClients } from "./list-clients.js";

const clientSchema = z.looseObject({
  id: z.number().int(),
  client_no: z.number().int(),
  client_name: z.string(),
  has_blue_pay_key: z.boolean(),
});

export function registerClientRoutes(router: Router): void {
  const { db } = router.deps;

  defineRoute(router, {
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
    method: "GET",
    url: "/api/clients/:id/",
    summary: "One client (admins: any; others: their own)",
    tags: ["Clients"],
    access: "user",
    params: recordIdParamsSchema,
    response: clientSchema,
    handle: ({ params, auth }) => getClient(db, auth, params.id),
  });
}
