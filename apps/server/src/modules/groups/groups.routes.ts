import {
  integerParam,
  pageSchema,
  recordIdParamsSchema,
  recordQuerySchema,
  routePlanInputSchema,
} from "@cyclebill/domain";
import { z } from "zod";
import { sendDownload } from "../../http/send-file.js";
import { registerTenantResource } from "../../http/tenant-resource-routes.js";
import { defineRoute, type Router } from "../../http/router.js";
import { findGroupMatches } from "./group-typeahead.js";
import { groupOutputSchema, groupsResource } from "./groups.resource.js";
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
    name: "listRoutePlans",
    method: "GET",
    url: "/api/routeplans/",
    summary: "Group memberships by customer (customer__id), by group (route) or by repeated id",
    tags,
    access: "tenant",
    query: z.looseObject({
      client_id: integerParam({ min: 1 }).optional(),
      customer__id: integerParam({ min: 1 }).optional(),
      route: integerParam({ min: 1 }).optional(),
      id: idList.optional(),
    }),
    response: z.object({ count: z.number().int(), results: z.array(routePlanOutputSchema) }),
    handle: async ({ query, tenant }) =>
      listRoutePlans(db, tenant, {
        customerId: query.customer__id,
        routeId: query.route,
        ids: query.id,
      }),
  });

  defineRoute(router, {
    name: "getRoutePlan",
    method: "GET",
    url: "/api/routeplans/:id/",
    summary: "One group membership",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: routePlanOutputSchema,
    handle: async ({ params, tenant }) => getRoutePlan(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "createRoutePlan",
    method: "POST",
    url: "/api/routeplans/",
    summary: "Add a customer to a group at a stop (0-based; clamped; the end when missing or not a number)",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: routePlanInputSchema,
    response: routePlanOutputSchema,
    successStatus: 201,
    handle: async ({ body, tenant }) => addRoutePlan(db, tenant, body),
  });

  defineRoute(router, {
    name: "updateRoutePlan",
    method: "PUT",
    url: "/api/routeplans/:id/",
    summary:
      "Move a member (stop, or another group) and set its processing status; the group is renumbered from 0",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    body: routePlanInputSchema,
    response: routePlanOutputSchema,
    handle: async ({ params, body, tenant }) => updateRoutePlan(db, tenant, params.id, body),
  });

  defineRoute(router, {
    name: "deleteRoutePlan",
    method: "DELETE",
    url: "/api/routeplans/:id/",
    summary: "Remove a customer from a group; the rest close ranks",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    successStatus: 204,
    handle: async ({ params, tenant }) => deleteRoutePlan(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "searchGroups",
    method: "GET",
    url: "/api/typeahead/routes/",
    summary: "Group typeahead: up to 100 groups matching a name",
    tags,
    access: "tenant",
    query: z.looseObject({
      client_id: integerParam({ min: 1 }).optional(),
      query: z.string().max(200).default(""),
    }),
    response: pageSchema(groupOutputSchema),
    handle: async ({ query, tenant }) => findGroupMatches(db, tenant, query.query),
  });

  defineRoute(router, {
    name: "getGroupReportPdf",
    method: "GET",
    url: "/api/pdf/route-reports/:id",
    summary: "Group Report PDF: the group's customers in stop order with status and balance",
    tags,
    access: "tenant",
    params: z.object({ id: integerParam({ min: 1 }) }),
    query: recordQuerySchema,
    produces: "application/pdf",
    handle: async ({ params, reply, tenant }) =>
      sendDownload(reply, await renderRouteReport(db, tenant, params.id), "application/pdf"),
  });
}
