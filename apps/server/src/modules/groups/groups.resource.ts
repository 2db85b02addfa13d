import { groupInputSchema, type GroupInput } from "@cyclebill/domain";
import { z } from "zod";
import { routes } from "../../db/tables.js";
import type { TenantResource } from "../tenancy/tenant-records.js";

export const groupOutputSchema = z.object({
  id: z.number().int(),
  client: z.number().int(),
  route_name: z.string(),
});
export type GroupOutput = z.infer<typeof groupOutputSchema>;

/** Groups of customers, called routes in the API. */
export const groupsResource: TenantResource<typeof routes, GroupInput, GroupOutput> = {
  name: "routes",
  tag: "Groups",
  table: routes,
  columns: { id: routes.id, clientId: routes.clientId },
  input: groupInputSchema,
  output: groupOutputSchema,
  orderingFields: { id: routes.id, route_name: routes.routeName },
  defaultOrdering: "route_name",
  toValues: (input) => ({ routeName: input.route_name }),
  toApi: (row) => ({ id: row.id, client: row.clientId, route_name: row.routeName }),
};
