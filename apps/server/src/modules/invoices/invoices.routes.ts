import {
  bulkAddInvoicesSchema,
  clientDocumentSchema,
  clientDocumentsQuerySchema,
  documentListQuerySchema,
  invoiceCreateSchema,
  invoiceDetailSchema,
  invoiceRecordSchema,
  pageSchema,
  invoiceDeleteQuerySchema,
  invoiceUpdateSchema,
  recordIdParamsSchema,
  recordQuerySchema,
} from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import { sendDownload } from "../../http/send-file.js";
import { bulkAddInvoices } from "./bulk-add-invoices.js";
import { renderInvoicePdf } from "./invoice.pdf.js";
import { listClientDocuments } from "./list-client-documents.js";
import { getInvoice, listInvoices } from "./list-invoices.js";
import {
  addInvoice,
  changeInvoiceStatus,
  deleteInvoice,
  separateTransactionsFromInvoice,
  updateInvoice,
} from "./manage-invoices.js";

const tags = ["Invoices"];
const invoicePageSchema = pageSchema(invoiceRecordSchema);

export function registerInvoiceRoutes(router: Router): void {
  const { db } = router.deps;

  defineRoute(router, {
    name: "listInvoices",
    method: "GET",
    url: "/api/invoices/",
    summary:
      "Invoices of the client: customer_id, start_date and end_date (on invoice_date), paging, ordering",
    tags,
    access: "tenant",
    query: documentListQuerySchema,
    response: invoicePageSchema,
    handle: async ({ query, tenant }) => listInvoices(db, tenant, query),
  });

  defineRoute(router, {
    name: "listInvoicesAndStatements",
    method: "GET",
    url: "/api/invoices-and-statements/",
    summary:
      "Every invoice and statement of the client with amount, amount due, due date and how it went out: customer_id, start_date, end_date (document date), document_type, invoice_status, balance (open, overdue); 15 a page; ordering",
    tags,
    access: "tenant",
    query: clientDocumentsQuerySchema,
    response: pageSchema(clientDocumentSchema),
    handle: async ({ query, tenant }) => listClientDocuments(db, tenant, query),
  });

  defineRoute(router, {
    name: "createInvoice",
    method: "POST",
    url: "/api/invoices/",
    summary: "Add invoice: an open, empty invoice for the customer (invoice_date defaults to today)",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: invoiceCreateSchema,
    response: invoiceDetailSchema,
    successStatus: 201,
    handle: async ({ body, tenant }) => addInvoice(db, tenant, body),
  });

  defineRoute(router, {
    name: "bulkAddInvoices",
    method: "POST",
    url: "/api/invoices/bulk-add-invoices/",
    summary:
      "One open invoice per customer (customer_ids, else every customer) holding its new transactions on no invoice",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: bulkAddInvoicesSchema,
    response: invoicePageSchema,
    successStatus: 201,
    handle: async ({ body, tenant }) => bulkAddInvoices(db, tenant, body),
  });

  defineRoute(router, {
    name: "getInvoice",
    method: "GET",
    url: "/api/invoices/:id/",
    summary: "One invoice with the transactions on it",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: invoiceDetailSchema,
    handle: async ({ params, tenant }) => getInvoice(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "updateInvoice",
    method: "PUT",
    url: "/api/invoices/:id/",
    summary: "Edit invoice: the date (and the customer while empty), only while open",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    body: invoiceUpdateSchema,
    response: invoiceDetailSchema,
    handle: async ({ params, body, tenant }) => updateInvoice(db, tenant, params.id, body),
  });

  defineRoute(router, {
    name: "deleteInvoice",
    method: "DELETE",
    url: "/api/invoices/:id/",
    summary:
      "Delete an open or closed invoice (its transactions go back to new); processed invoices and statements (document=statement) are refused",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: invoiceDeleteQuerySchema,
    successStatus: 204,
    handle: async ({ params, query, tenant }) => deleteInvoice(db, tenant, params.id, query.document),
  });

  for (const action of ["close", "reopen"] as const) {
    defineRoute(router, {
      name: action === "close" ? "closeInvoice" : "reopenInvoice",
      method: "POST",
      url: `/api/invoices/:id/${action}/`,
      summary: action === "close" ? "Close an open invoice" : "Reopen a closed invoice (not a processed one)",
      tags,
      access: "tenant",
      clientIdFrom: "query-or-body",
      params: recordIdParamsSchema,
      query: recordQuerySchema,
      response: invoiceDetailSchema,
      handle: async ({ params, tenant }) => changeInvoiceStatus(db, tenant, params.id, action),
    });
  }

  defineRoute(router, {
    name: "separateTransactionsFromInvoice",
    method: "POST",
    url: "/api/invoices/:id/separateTransactionsFromInvoice/",
    summary: "Take every transaction off an open invoice (they go back to new)",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: invoiceDetailSchema,
    handle: async ({ params, tenant }) => separateTransactionsFromInvoice(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "getInvoicePdf",
    alsoAnswers: [409],
    method: "GET",
    url: "/api/invoices/:id/pdf/",
    summary: "The invoice PDF, named with the invoice number (and the statement once processed)",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    produces: "application/pdf",
    handle: async ({ params, reply, tenant }) =>
      sendDownload(reply, await renderInvoicePdf(db, tenant, params.id), "application/pdf"),
  });
}
