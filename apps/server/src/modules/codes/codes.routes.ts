import { registerTenantResource } from "../../http/tenant-resource-routes.js";
import type { Router } from "../../http/router.js";
import { codesResource } from "./codes.resource.js";

export function registerCodeRoutes(router: Router): void {
  registerTenantResource(router, codesResource);
}
