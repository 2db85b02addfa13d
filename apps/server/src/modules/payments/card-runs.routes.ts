import {
  bulkPaymentRequestSchema,
  cardRunSchema,
  cardRunStartedSchema,
  creditCardCustomerSchema,
  creditCardCustomersQuerySchema,
  listQuerySchema,
  pageSchema,
  recordIdParamsSchema,
  recordQuerySchema,
} from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import { getCardRun } from "./card-run-results.js";
import { listCreditCardCustomers } from "./credit-card-customers.js";
import { startBulkCardRun } from "./start-card-run.js";

const tags = ["Payments"];

/** Process CC: customers with a stored method, bulk card runs and their results. */
export function registerCardRunRoutes(router: Router): void {
  const { db, jobs } = router.deps;

  defineRoute(router, {
    name: "listCreditCardCustomers",
    method: "GET",
    url: "/api/customers/credit-card-customers/",
    summary:
      "Process CC: customers with a stored payment method and their balances (500 a page; query, has_pending_charges, ordering)",
    tags,
    access: "tenant",
    query: creditCardCustomersQuerySchema,
    response: pageSchema(creditCardCustomerSchema),
    handle: ({ query, tenant }) => listCreditCardCustomers(db, tenant, query),
  });

  defineRoute(router, {
    name: "makeBulkPayments",
    method: "POST",
    url: "/api/customers/make-bulk-payments/",
    summary:
      "Charge the selected customers their balances with their stored methods, as a job: 202 with the card run's job; follow it with GET /api/card-runs/{id}/",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: bulkPaymentRequestSchema,
    response: cardRunStartedSchema,
    successStatus: 202,
    handle: ({ body, tenant }) =>
      startBulkCardRun(db, tenant, body.ids, async (tx, chunks) => {
        for (const chunk of chunks)
          await jobs.enqueue("card-run", chunk.payload, { executor: tx, priority: chunk.priority });
      }),
  });

  defineRoute(router, {
    name: "getCardRun",
    method: "GET",
    url: "/api/card-runs/:id/",
    summary:
      "A card run (Process CC or autopay): progress, approved and declined counts, and per-customer results (limit/offset, 500 a page)",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: listQuerySchema,
    response: cardRunSchema,
    handle: ({ params, query, tenant }) => getCardRun(db, tenant, params.id, query),
  });
}
