import { registerTenantResource } from "../../http/tenant-resource-routes.js";
import type { Router } from "../../http/router.js";
import { groupsResource } from "./groups.resource.js";

export function registerGroupRoutes(router: Router): void {
  registerTenantResource(router, groupsResource);
}
