import type { PgTable } from "drizzle-orm/pg-core";
import { listQuerySchema, recordIdParamsSchema, recordQuerySchema, type ListQuery } from "@cyclebill/domain";
import { z } from "zod";
import { resolveTenant } from "../modules/tenancy/resolve-tenant.js";
import {
  createTenantRecord,
  deleteTenantRecord,
  getTenantRecord,
  listTenantRecords,
  updateTenantRecord,
  type TenantResource,
} from "../modules/tenancy/tenant-records.js";
import { defineRoute, type Router } from "./router.js";
import { clientIdInBody } from "./client-id-in-body.js";

/** Registers the five conventional routes of a tenant resource under /api/{name}/. */
export function registerTenantResource<TTable extends PgTable, TInput, TOutput, TFilters>(
  router: Router,
  resource: TenantResource<TTable, TInput, TOutput, TFilters>,
): void {
  const { db } = router.deps;
  const collection = `/api/${resource.name}/`;
  const member = `/api/${resource.name}/:id/`;
  const tags = [resource.tag];
  const pageSchema = z.object({ count: z.number().int(), results: z.array(resource.output) });

  defineRoute(router, {
    method: "GET",
    url: collection,
    summary: `List ${resource.name}`,
    tags,
    access: "user",
    // One schema for paging, tenant and the resource's filters, so each key is parsed once.
    query: resource.filters ? listQuerySchema.extend(resource.filters.schema.shape) : listQuerySchema,
    response: pageSchema,
    handle: async ({ query, auth }) => {
      // The extended schema's output is the list query plus the resource's filters.
      const listQuery = query as ListQuery & TFilters;
      const tenant = await resolveTenant(db, auth, listQuery.client_id);
      return listTenantRecords(db, tenant, resource, listQuery, resource.filters ? listQuery : undefined);
    },
  });

  defineRoute(router, {
    method: "GET",
    url: member,
    summary: `Get one of ${resource.name}`,
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: resource.output,
    handle: async ({ params, query, auth }) =>
      getTenantRecord(db, await resolveTenant(db, auth, query.client_id), resource, params.id),
  });

  defineRoute(router, {
    method: "POST",
    url: collection,
    summary: `Create one of ${resource.name}`,
    tags,
    access: "user",
    query: recordQuerySchema,
    body: resource.input,
    response: resource.output,
    successStatus: 201,
    handle: async ({ query, body, auth, request }) => {
      const tenant = await resolveTenant(db, auth, query.client_id ?? clientIdInBody(request.body));
      return createTenantRecord(db, tenant, resource, body);
    },
  });

  defineRoute(router, {
    method: "PUT",
    url: member,
    summary: `Replace one of ${resource.name} (full body)`,
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    body: resource.input,
    response: resource.output,
    handle: async ({ params, query, body, auth, request }) => {
      const tenant = await resolveTenant(db, auth, query.client_id ?? clientIdInBody(request.body));
      return updateTenantRecord(db, tenant, resource, params.id, body);
    },
  });

  defineRoute(router, {
    method: "DELETE",
    url: member,
    summary: `Delete one of ${resource.name}`,
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    successStatus: 204,
    handle: async ({ params, query, auth }) =>
      deleteTenantRecord(db, await resolveTenant(db, auth, query.client_id), resource, params.id),
  });
}
