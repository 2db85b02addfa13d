import {
  DELETE_FLAG_INPUT,
  asOfQuerySchema,
  calendarDate,
  customerFullCreateSchema,
  customerInputSchema,
  customerUpdateSchema,
  customerListRowSchema,
  customerMatchSchema,
  customerRecordSchema,
  customerSummarySchema,
  integerParam,
  pageSchema,
  listQuerySchema,
  recordIdParamsSchema,
  recordQuerySchema,
} from "@cyclebill/domain";
import { z } from "zod";
import type { TenantContext } from "../../http/auth-context.js";
import { sendDownload } from "../../http/send-file.js";
import { registerTenantResource } from "../../http/tenant-resource-routes.js";
import { defineRoute, type Router } from "../../http/router.js";
import { summarizeCustomer } from "../summary/customer-summary.js";
import { findCustomerMatches } from "./customer-typeahead.js";
import { exportCustomersZip, renderBalanceSheet } from "./customers-export.js";
import { listCustomers } from "./list-customers.js";
import {
  archiveCustomer,
  createCustomer,
  fullCreateCustomer,
  getCustomer,
  setDeleteFlag,
  undeleteCustomer,
  updateCustomer,
} from "./manage-customers.js";
import { recurringChargesResource } from "./recurring-charges.resource.js";
import { storedAmountsResource } from "./stored-amounts.resource.js";

const tags = ["Customers"];
const queryFlag = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0", ""])])
  .transform((value) => value === true || value === "true" || value === "1");
const clientParams = z.object({ client: integerParam({ min: 1 }) });

export function registerCustomerRoutes(router: Router): void {
  const { db } = router.deps;

  defineRoute(router, {
    name: "listCustomers",
    method: "GET",
    url: "/api/customers/",
    summary:
      "Manage Customers list: paging, ordering, text and date filters, archived-only or pending-archive-only",
    tags,
    access: "tenant",
    query: listQuerySchema.extend({
      query: z.string().max(200).optional(),
      startDate: calendarDate().optional(),
      endDate: calendarDate().optional(),
      includeOnlyArchived: queryFlag.optional(),
      includeOnlyPendingArchived: queryFlag.optional(),
      /** Ages (and gives the balance) as of this past day, from the ledger; today when absent. */
      as_of: calendarDate().optional(),
    }),
    response: pageSchema(customerListRowSchema),
    handle: async ({ query, tenant }) => listCustomers(db, tenant, query, query),
  });

  defineRoute(router, {
    name: "fullCreateCustomer",
    method: "POST",
    url: "/api/customers/full-create/",
    summary: "Add a customer with its recurring charges, stored amounts and groups, in one transaction",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: customerFullCreateSchema,
    response: customerRecordSchema,
    successStatus: 201,
    handle: async ({ body, tenant }) => fullCreateCustomer(db, tenant, body),
  });

  defineRoute(router, {
    name: "getCustomer",
    method: "GET",
    url: "/api/customers/:id/",
    summary: "One customer",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: customerRecordSchema,
    handle: async ({ params, tenant }) => getCustomer(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "createCustomer",
    method: "POST",
    url: "/api/customers/",
    summary: "Add a customer (numbered after the highest when customer_no is not given)",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: customerInputSchema,
    response: customerRecordSchema,
    successStatus: 201,
    handle: async ({ body, tenant }) => createCustomer(db, tenant, body),
  });

  defineRoute(router, {
    name: "updateCustomer",
    method: "PUT",
    url: "/api/customers/:id/",
    summary: "Save the customer editor (full body)",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    body: customerUpdateSchema,
    response: customerRecordSchema,
    handle: async ({ params, body, tenant }) => updateCustomer(db, tenant, params.id, body),
  });

  defineRoute(router, {
    name: "archiveCustomer",
    method: "DELETE",
    url: "/api/customers/:id/",
    summary:
      "Archive a customer whose balance is zero (400 when it has a balance: mark it for deletion instead)",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    successStatus: 204,
    handle: async ({ params, tenant }) => archiveCustomer(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "setCustomerDeleteFlag",
    method: "POST",
    url: "/api/customers/:id/delete-flag/",
    summary:
      "Mark for deletion when the balance reaches zero: D (billing stopped), S (billing continues), null (remove)",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    body: DELETE_FLAG_INPUT,
    response: customerRecordSchema,
    handle: async ({ params, body, tenant }) => setDeleteFlag(db, tenant, params.id, body.delete_flag),
  });

  defineRoute(router, {
    name: "undeleteCustomer",
    method: "POST",
    url: "/api/customers/:id/undelete-now/",
    summary: "Unarchive (an archived customer's transaction history is not kept), or remove a deletion mark",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: customerRecordSchema,
    handle: async ({ params, tenant }) => undeleteCustomer(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "getCustomerSummary",
    method: "GET",
    url: "/api/summary-data/customer/:id",
    summary:
      "The customer's Status tab: dates, balance, ageing, month/year-to-date and last-year figures, as of today or as_of=YYYY-MM-DD",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: asOfQuerySchema,
    response: customerSummarySchema,
    handle: async ({ params, query, tenant }) => summarizeCustomer(db, tenant, params.id, query.as_of),
  });

  /** A whole-client download, the client named in the path. */
  const defineDownload = (
    name: string,
    url: string,
    summary: string,
    contentType: "application/zip" | "application/pdf",
    render: (tenant: TenantContext) => Promise<Parameters<typeof sendDownload>[1]>,
  ) =>
    defineRoute(router, {
      name,
      method: "GET",
      url,
      summary,
      tags,
      access: "tenant",
      clientIdFrom: ({ params }) => params.client,
      params: clientParams,
      produces: contentType,
      handle: async ({ tenant, reply }) => sendDownload(reply, await render(tenant), contentType),
    });

  defineDownload(
    "exportCustomersZip",
    "/api/csv/customers/:client",
    "Customers.zip: a CSV of every customer of the client with every field and balance",
    "application/zip",
    (tenant) => exportCustomersZip(db, tenant),
  );
  defineDownload(
    "getCustomerBalanceSheetPdf",
    "/api/pdf/customer-mtd-report/:client",
    "Customer-Balance-Sheet.pdf: each customer's figures since their last statement and balance, with totals",
    "application/pdf",
    (tenant) => renderBalanceSheet(db, tenant),
  );

  defineRoute(router, {
    name: "searchCustomers",
    method: "GET",
    url: "/api/typeahead/customers/",
    summary: "Customer Select: up to 100 customers matching a name or number",
    tags,
    access: "tenant",
    query: z.looseObject({
      client_id: integerParam({ min: 1 }).optional(),
      query: z.string().max(200).default(""),
    }),
    response: pageSchema(customerMatchSchema),
    handle: async ({ query, tenant }) => findCustomerMatches(db, tenant, query.query),
  });

  registerTenantResource(router, storedAmountsResource);
  registerTenantResource(router, recurringChargesResource);
}
