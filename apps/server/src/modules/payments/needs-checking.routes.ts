import {
  needsCheckingAttemptSchema,
  needsCheckingQuerySchema,
  pageSchema,
  recordIdParamsSchema,
  recordQuerySchema,
  resolveAttemptSchema,
  resolvedAttemptSchema,
} from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import { enqueueReceipts } from "./enqueue-receipts.js";
import { listNeedsChecking, resolveAttempt } from "./needs-checking.js";

const tags = ["Payments"];

/** The unknown attempts and a person's verdict on one (registered by registerPaymentRoutes). */
export function registerNeedsCheckingRoutes(router: Router): void {
  const { db, jobs } = router.deps;

  defineRoute(router, {
    name: "listNeedsChecking",
    method: "GET",
    url: "/api/payment-attempts/needs-checking/",
    summary:
      "Attempts whose gateway answer was lost or unusable (unknown), oldest first: what was sent, the lookups made by its ORDER_ID and any record found",
    tags,
    access: "tenant",
    query: needsCheckingQuerySchema,
    response: pageSchema(needsCheckingAttemptSchema),
    handle: ({ query, tenant }) => listNeedsChecking(db, tenant, query),
  });

  defineRoute(router, {
    name: "resolvePaymentAttempt",
    method: "POST",
    url: "/api/payment-attempts/:id/resolve/",
    summary:
      "Settle an unknown attempt by what a person found at the gateway: charged (posts the payment) or not_charged (closes it), with the reason; owners and admins",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    body: resolveAttemptSchema,
    response: resolvedAttemptSchema,
    handle: async ({ params, body, tenant }) => {
      const resolved = await resolveAttempt(db, tenant, params.id, body);
      await enqueueReceipts(jobs, router.app.log, tenant.clientId);
      return resolved;
    },
  });
}
