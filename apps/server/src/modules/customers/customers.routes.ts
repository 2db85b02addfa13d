import { integerParam } from "@cyclebill/domain";
import { z } from "zod";
import { defineRoute, type Router } from "../../http/router.js";
import { resolveTenant } from "../tenancy/resolve-tenant.js";
import { findCustomerMatches } from "./customer-typeahead.js";

export function registerCustomerRoutes(router: Router): void {
  const { db } = router.deps;
  defineRoute(router, {
    method: "GET",
    url: "/api/typeahead/customers/",
    summary: "Customer Select: up to 100 customers matching a name or number",
    tags: ["Customers"],
    access: "user",
    query: z.looseObject({
      client_id: integerParam({ min: 1 }).optional(),
      query: z.string().max(200).default(""),
    }),
    response: z.object({
      count: z.number().int(),
      results: z.array(
        z.object({
          id: z.number().int(),
          customer_no: z.number().int(),
          customer_name: z.string(),
          first_name: z.string(),
          last_name: z.string(),
          company_name: z.string(),
        }),
      ),
    }),
    handle: async ({ query, auth }) =>
      findCustomerMatches(db, await resolveTenant(db, auth, query.client_id), query.query),
  });
}
