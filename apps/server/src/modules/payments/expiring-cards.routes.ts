import { expiringCardSchema, expiringCardsQuerySchema, pageSchema } from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import { listExpiringCards } from "./expiring-cards.js";

/** Process CC: cards on file that expire before the customer's next charge. */
export function registerExpiringCardRoutes(router: Router): void {
  const { db } = router.deps;

  defineRoute(router, {
    name: "listExpiringCards",
    method: "GET",
    url: "/api/payment-methods/expiring/",
    summary:
      "Cards on file that expire before the customer's next charge (the autopay charge announced, else the next cycle's), with when the customer was emailed (paged)",
    tags: ["Payments"],
    access: "tenant",
    query: expiringCardsQuerySchema,
    response: pageSchema(expiringCardSchema),
    handle: ({ query, tenant }) => listExpiringCards(db, tenant, query),
  });
}
