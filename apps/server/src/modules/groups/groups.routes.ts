import {
  integerParam,
  recordIdParamsSchema,
  recordQuerySchema,
  routePlanInputSchema,
} from "@cyclebill/domain";
import { z } from "zod";
import { clientIdInBody } from "../../http/client-id-in-body.js";
import { sendDownload } from "../../http/send-file.js";
import { registerTenantResource } from "../../http/tenant-resource-routes.js";
import { defineRoute, type Router } from "../../http/router.js";
import { resolveTenant } from "../tenancy/resolve-tenant.js";
import { findGroupMatches } from "./group-typeahead.js";
import { groupsResource } from "./groups.resource.js";
import { renderRouteReport } from "./route-report.pdf.js";
import {
  addRoutePlan,
  deleteRoutePlan,
  getRoutePlan,
  listRoutePlans,
  routePlanOutputSchema,
  updateRoutePlan,
} from "./route-plans.js";

const tags = ["Groups"];
const idList = z
  .union([integerParam({ min: 1 }), z.array(integerParam({ min: 1 })).max(1000)])
  .transform((value) => (Array.isArray(value) ? value : [value]));

export function registerGroupRoutes(router: Router): void {
  const { db } = router.deps;
  registerTenantResource(router, groupsResource);

  defineRoute(router, {
    method: "GET",
    url: "/api/routeplans/",
    summary: "Group memberships by customer (customer__id), by group (route) or by repeated id",
    tags,
    access: "user",
    query: z.looseObject({
      client_id: integerParam({ min: 1 }).optional(),
      customer__id: integerParam({ min: 1 }).optional(),
      route: integerParam({ min: 1 }).optional(),
      id: idList.optional(),
    }),
    response: z.object({ count: z.number().int(), results: z.array(routePlanOutputSchema) }),
    handle: async ({ query, auth }) =>
      listRoutePlans(db, await resolveTenant(db, auth, query.client_id), {
        customerId: query.customer__id,
        routeId: query.route,
        ids: query.id,
      }),
  });

  defineRoute(router, {
    method: "GET",
    url: "/api/routeplans/:id/",
    summary: "One group membership",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: routePlanOutputSchema,
    handle: async ({ params, query, auth }) =>
      getRoutePlan(db, await resolveTenant(db, auth, query.client_id), params.id),
  });

  defineRoute(router, {
    method: "POST",
    url: "/api/routeplans/",
    summary: "Add a customer to a group at a stop (0-based; clamped; the end when missing or not a number)",
    tags,
    access: "user",
    query: recordQuerySchema,
    body: routePlanInputSchema,
    response: routePlanOutputSchema,
    successStatus: 201,
    handle: async ({ query, body, auth, request }) =>
      addRoutePlan(db, await resolveTenant(db, auth, query.client_id ?? clientIdInBody(request.body)), body),
  });

  defineRoute(router, {
    method: "PUT",
    url: "/api/routeplans/:id/",
    summary:
      "Move a member (stop, or another group) and set its processing status; the group is renumbered from 0",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    body: routePlanInputSchema,
    response: routePlanOutputSchema,
    handle: async ({ params, query, body, auth, request }) =>
      updateRoutePlan(
        db,
        await resolveTenant(db, auth, query.client_id ?? clientIdInBody(request.body)),
        params.id,
        body,
      ),
  });

  defineRoute(router, {
    method: "DELETE",
    url: "/api/routeplans/:id/",
    summary: "Remove a customer from a group; the rest close ranks",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    successStatus: 204,
    handle: async ({ params, query, auth }) =>
      deleteRoutePlan(db, await resolveTenant(db, auth, query.client_id), params.id),
  });

  defineRoute(router, {
    method: "GET",
    url: "/api/typeahead/routes/",
    summary: "Group typeahead: up to 100 groups matching a name",
    tags,
    access: "user",
    query: z.looseObject({
      client_id: integerParam({ min: 1 }).optional(),
      query: z.string().max(200).default(""),
    }),
    handle: async ({ query, auth }) =>
      findGroupMatches(db, await resolveTenant(db, auth, query.client_id), query.query),
  });

  defineRoute(router, {
    method: "GET",
    url: "/api/pdf/route-reports/:id",
    summary: "Group Report PDF: the group's customers in stop order with status and balance",
    tags,
    access: "user",
    params: z.object({ id: integerParam({ min: 1 }) }),
    query: recordQuerySchema,
    produces: "application/pdf",
    handle: async ({ params, query, auth, reply }) =>
      sendDownload(
        reply,
        await renderRouteReport(db, await resolveTenant(db, auth, query.client_id), params.id),
        "application/pdf",
      ),
  });
}
