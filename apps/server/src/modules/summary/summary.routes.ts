import { asOfQuerySchema, clientSummarySchema, integerParam } from "@cyclebill/domain";
import { z } from "zod";
import { defineRoute, type Router } from "../../http/router.js";
import { summarizeClient } from "./client-summary.js";

export function registerSummaryRoutes(router: Router): void {
  const { db } = router.deps;
  defineRoute(router, {
    name: "getClientSummary",
    method: "GET",
    url: "/api/summary-data/client/:id",
    summary:
      "Home dashboard figures for a client from the ledger, as of today or as_of=YYYY-MM-DD (later entries left out)",
    tags: ["Summary"],
    access: "tenant",
    // The client is the path's id.
    clientIdFrom: ({ params }) => params.id,
    params: z.object({ id: integerParam({ min: 1 }) }),
    query: asOfQuerySchema,
    response: clientSummarySchema,
    handle: async ({ query, tenant }) => summarizeClient(db, tenant, query.as_of),
  });
}
