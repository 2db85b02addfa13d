import {
  bulkAddInvoicesSchema,
  documentListQuerySchema,
  invoiceCreateSchema,
  invoiceDeleteQuerySchema,
  invoiceUpdateSchema,
  recordIdParamsSchema,
  recordQuerySchema,
} from "@cyclebill/domain";
import { z } from "zod";
import { clientIdInBody } from "../../http/client-id-in-body.js";
import { defineRoute, type Router } from "../../http/router.js";
import { sendDownload } from "../../http/send-file.js";
import { resolveTenant } from "../tenancy/resolve-tenant.js";
import { bulkAddInvoices } from "./bulk-add-invoices.js";
import { renderInvoicePdf } from "./invoice.pdf.js";
import { getInvoice, listInvoices } from "./list-invoices.js";
import {
  addInvoice,
  changeInvoiceStatus,
  deleteInvoice,
  separateTransactionsFromInvoice,
  updateInvoice,
} from "./manage-invoices.js";

const tags = ["Invoices"];
const invoiceSchema = z.looseObject({
  id: z.number().int(),
  invoice_num: z.number().int(),
  invoice_status: z.enum(["open", "closed", "processed"]),
  invoice_date: z.string(),
  customer: z.looseObject({ id: z.number().int(), customer_name: z.string(), customer_no: z.number().int() }),
  statement: z.number().int().nullable(),
  total: z.string(),
  transaction_count: z.number().int(),
});
const invoicePageSchema = z.object({ count: z.number().int(), results: z.array(invoiceSchema) });

export function registerInvoiceRoutes(router: Router): void {
  const { db } = router.deps;
  const tenantOf = async (
    auth: Parameters<typeof resolveTenant>[1],
    queryClientId: number | undefined,
    body?: unknown,
  ) => resolveTenant(db, auth, queryClientId ?? clientIdInBody(body));

  defineRoute(router, {
    method: "GET",
    url: "/api/invoices/",
    summary:
      "Invoices of the client: customer_id, start_date and end_date (on invoice_date), paging, ordering",
    tags,
    access: "user",
    query: documentListQuerySchema,
    response: invoicePageSchema,
    handle: async ({ query, auth }) => listInvoices(db, await tenantOf(auth, query.client_id), query),
  });

  defineRoute(router, {
    method: "POST",
    url: "/api/invoices/",
    summary: "Add invoice: an open, empty invoice for the customer (invoice_date defaults to today)",
    tags,
    access: "user",
    query: recordQuerySchema,
    body: invoiceCreateSchema,
    response: invoiceSchema,
    successStatus: 201,
    handle: async ({ query, body, auth, request }) =>
      addInvoice(db, await tenantOf(auth, query.client_id, request.body), body),
  });

  defineRoute(router, {
    method: "POST",
    url: "/api/invoices/bulk-add-invoices/",
    summary:
      "One open invoice per customer (customer_ids, else every customer) holding its new transactions on no invoice",
    tags,
    access: "user",
    query: recordQuerySchema,
    body: bulkAddInvoicesSchema,
    response: invoicePageSchema,
    successStatus: 201,
    handle: async ({ query, body, auth, request }) =>
      bulkAddInvoices(db, await tenantOf(auth, query.client_id, request.body), body),
  });

  defineRoute(router, {
    method: "GET",
    url: "/api/invoices/:id/",
    summary: "One invoice with the transactions on it",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: invoiceSchema,
    handle: async ({ params, query, auth }) =>
      getInvoice(db, await tenantOf(auth, query.client_id), params.id),
  });

  defineRoute(router, {
    method: "PUT",
    url: "/api/invoices/:id/",
    summary: "Edit invoice: the date (and the customer while empty), only while open",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    body: invoiceUpdateSchema,
    response: invoiceSchema,
    handle: async ({ params, query, body, auth, request }) =>
      updateInvoice(db, await tenantOf(auth, query.client_id, request.body), params.id, body),
  });

  defineRoute(router, {
    method: "DELETE",
    url: "/api/invoices/:id/",
    summary:
      "Delete an open or closed invoice (its transactions go back to new); processed invoices and statements (document=statement) are refused",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: invoiceDeleteQuerySchema,
    successStatus: 204,
    handle: async ({ params, query, auth }) =>
      deleteInvoice(db, await tenantOf(auth, query.client_id), params.id, query.document),
  });

  for (const action of ["close", "reopen"] as const) {
    defineRoute(router, {
      method: "POST",
      url: `/api/invoices/:id/${action}/`,
      summary: action === "close" ? "Close an open invoice" : "Reopen a closed invoice (not a processed one)",
      tags,
      access: "user",
      params: recordIdParamsSchema,
      query: recordQuerySchema,
      response: invoiceSchema,
      handle: async ({ params, query, auth, request }) =>
        changeInvoiceStatus(db, await tenantOf(auth, query.client_id, request.body), params.id, action),
    });
  }

  defineRoute(router, {
    method: "POST",
    url: "/api/invoices/:id/separateTransactionsFromInvoice/",
    summary: "Take every transaction off an open invoice (they go back to new)",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: invoiceSchema,
    handle: async ({ params, query, auth, request }) =>
      separateTransactionsFromInvoice(db, await tenantOf(auth, query.client_id, request.body), params.id),
  });

  defineRoute(router, {
    method: "GET",
    url: "/api/invoices/:id/pdf/",
    summary: "The invoice PDF, named with the invoice number (and the statement once processed)",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    produces: "application/pdf",
    handle: async ({ params, query, auth, reply }) =>
      sendDownload(
        reply,
        await renderInvoicePdf(db, await tenantOf(auth, query.client_id), params.id),
        "application/pdf",
      ),
  });
}
