import { groupInputSchema, type GroupInput } from "@cyclebill/domain";
import { z } from "zod";
import { routes } from "../../db/tables.js";
import type { TenantResource } from "../tenancy/tenant-records.js";
import { groupMembers, routePlanOutputSchema } from "./route-plans.js";

export const groupOutputSchema = z.object({
  id: z.number().int(),
  client: z.number().int(),
  route_name: z.string(),
  /** On the single-group read only: the members in stop order. */
  details: z.array(routePlanOutputSchema).optional(),
});
export type GroupOutput = z.infer<typeof groupOutputSchema>;

/** Groups of customers, called routes in the API. */
export const groupsResource: TenantResource<typeof routes, GroupInput, GroupOutput> = {
  name: "routes",
  operationNames: { one: "Group", many: "Groups" },
  tag: "Groups",
  table: routes,
  input: groupInputSchema,
  output: groupOutputSchema,
  orderingFields: { id: routes.id, route_name: routes.routeName },
  defaultOrdering: "route_name",
  toValues: (input) => ({ routeName: input.route_name }),
  toApi: (row) => ({ id: row.id, client: row.clientId, route_name: row.routeName }),
  withDetails: async (db, tenant, group) => ({ ...group, details: await groupMembers(db, tenant, group.id) }),
};
