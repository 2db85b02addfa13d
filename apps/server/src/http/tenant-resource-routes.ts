import { listQuerySchema, recordIdParamsSchema, recordQuerySchema, type ListQuery } from "@cyclebill/domain";
import { z } from "zod";
import {
  createTenantRecord,
  deleteTenantRecord,
  getTenantRecord,
  listTenantRecords,
  updateTenantRecord,
  type TenantResource,
  type TenantTable,
} from "../modules/tenancy/tenant-records.js";
import { defineRoute, type Router } from "./router.js";

/** Registers the five conventional routes of a tenant resource under /api/{name}/. */
export function registerTenantResource<TTable extends TenantTable, TInput, TOutput, TFilters>(
  router: Router,
  resource: TenantResource<TTable, TInput, TOutput, TFilters>,
): void {
  const { db } = router.deps;
  const collection = `/api/${resource.name}/`;
  const member = `/api/${resource.name}/:id/`;
  const tags = [resource.tag];
  const { one, many } = resource.operationNames;
  const pageSchema = z.object({ count: z.number().int(), results: z.array(resource.output) });

  defineRoute(router, {
    name: `list${many}`,
    method: "GET",
    url: collection,
    summary: `List ${resource.name}`,
    tags,
    access: "tenant",
    // One schema for paging, tenant and the resource's filters, so each key is parsed once.
    query: resource.filters ? listQuerySchema.extend(resource.filters.schema.shape) : listQuerySchema,
    response: pageSchema,
    handle: async ({ query, tenant }) => {
      // The extended schema's output is the list query plus the resource's filters.
      const listQuery = query as ListQuery & TFilters;
      return listTenantRecords(db, tenant, resource, listQuery, resource.filters ? listQuery : undefined);
    },
  });

  defineRoute(router, {
    name: `get${one}`,
    method: "GET",
    url: member,
    summary: `Get one of ${resource.name}`,
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: resource.output,
    handle: async ({ params, tenant }) => getTenantRecord(db, tenant, resource, params.id),
  });

  defineRoute(router, {
    name: `create${one}`,
    method: "POST",
    url: collection,
    summary: `Create one of ${resource.name}`,
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: resource.input,
    response: resource.output,
    successStatus: 201,
    handle: async ({ body, tenant }) => createTenantRecord(db, tenant, resource, body),
  });

  defineRoute(router, {
    name: `update${one}`,
    method: "PUT",
    url: member,
    summary: `Replace one of ${resource.name} (full body)`,
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    body: resource.input,
    response: resource.output,
    handle: async ({ params, body, tenant }) => updateTenantRecord(db, tenant, resource, params.id, body),
  });

  defineRoute(router, {
    name: `delete${one}`,
    method: "DELETE",
    url: member,
    summary: `Delete one of ${resource.name}`,
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    successStatus: 204,
    handle: async ({ params, tenant }) => deleteTenantRecord(db, tenant, resource, params.id),
  });
}
