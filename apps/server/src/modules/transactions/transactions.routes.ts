import {
  CODE_TYPES,
  integerParam,
  listQuerySchema,
  recordIdParamsSchema,
  recordQuerySchema,
  transactionBatchSchema,
  transactionInputSchema,
  transactionMassUpdateSchema,
} from "@cyclebill/domain";
import { z } from "zod";
import { clientIdInBody } from "../../http/client-id-in-body.js";
import { fieldError } from "../../http/errors.js";
import { defineRoute, type Router } from "../../http/router.js";
import { resolveTenant } from "../tenancy/resolve-tenant.js";
import { massUpdateTransactions, makeInvoiceFromTransactions } from "./bulk-transaction-actions.js";
import {
  createTransaction,
  deleteReversal,
  deleteTransaction,
  deleteVoid,
  editTransaction,
  reverseTransaction,
  voidTransaction,
} from "./change-transaction.js";
import { listTransactions, totalTransactions, transactionFiltersSchema } from "./list-transactions.js";
import { postBatch } from "./post-batch.js";
import { streamTransactionsCsv } from "./transactions-csv.js";
import { findTransaction, transactionToApi } from "./transaction-view.js";

const tags = ["Transactions"];
const transactionSchema = z.looseObject({
  id: z.number().int(),
  customer: z.number().int(),
  code: z.number().int(),
  amount: z.string(),
  ledger_amount: z.string(),
  editable: z.boolean(),
  voidable: z.boolean(),
});
const isoDate = /^\d{4}-\d{2}-\d{2}$/;
/** A path segment of the CSV download: 0 means "not set". */
const idSegment = integerParam({ min: 0 });
const dateSegment = z
  .string()
  .refine((value) => value === "0" || isoDate.test(value), "Use YYYY-MM-DD, or 0 for no limit.");

export function registerTransactionRoutes(router: Router): void {
  const { db } = router.deps;
  const tenantFor = (auth: Parameters<typeof resolveTenant>[1], clientId: number | undefined) =>
    resolveTenant(db, auth, clientId);

  defineRoute(router, {
    method: "GET",
    url: "/api/transactions/",
    summary:
      "Search the ledger: filters customer__id, code__id, code__code_type, created__gte/lte, serviceDate__gte/lte, historical, invoice",
    tags,
    access: "user",
    query: listQuerySchema.extend(transactionFiltersSchema.shape),
    response: z.object({ count: z.number().int(), results: z.array(transactionSchema) }),
    handle: async ({ query, auth }) =>
      listTransactions(db, await tenantFor(auth, query.client_id), query, query),
  });

  defineRoute(router, {
    method: "GET",
    url: "/api/transactions/get_total_amount/",
    summary:
      "Totals of the filtered set: totalAmount (sum of amounts), netAmount (net change to balances), count",
    tags,
    access: "user",
    query: recordQuerySchema.extend(transactionFiltersSchema.shape),
    response: z.object({ totalAmount: z.string(), netAmount: z.string(), count: z.number().int() }),
    handle: async ({ query, auth }) => totalTransactions(db, await tenantFor(auth, query.client_id), query),
  });

  defineRoute(router, {
    method: "POST",
    url: "/api/transactions/",
    summary:
      "Post one entry; an equal entry of the last 24 hours answers 'Duplicate Transaction Detected' unless force",
    tags,
    access: "user",
    query: recordQuerySchema,
    body: transactionInputSchema,
    response: transactionSchema,
    successStatus: 201,
    handle: async ({ query, body, auth, request }) =>
      createTransaction(db, await tenantFor(auth, query.client_id ?? clientIdInBody(request.body)), body),
  });

  defineRoute(router, {
    method: "POST",
    url: "/api/transactions/mass_update/",
    summary:
      "Mass update: change customer, code, description, serviceDate, rate, quantity or uom of the selected entries",
    tags,
    access: "user",
    query: recordQuerySchema,
    body: transactionMassUpdateSchema,
    handle: async ({ query, body, auth, request }) =>
      massUpdateTransactions(
        db,
        await tenantFor(auth, query.client_id ?? clientIdInBody(request.body)),
        body,
      ),
  });

  defineRoute(router, {
    method: "POST",
    url: "/api/transactions/make_invoice/",
    summary: "Make Invoice from Selected: one open invoice with the selected entries of one customer",
    tags,
    access: "user",
    query: recordQuerySchema,
    body: z.object({
      ids: z
        .array(integerParam({ min: 1 }))
        .min(1)
        .max(5000),
      invoice_date: z
        .string()
        .regex(isoDate, "Date has wrong format. Use one of these formats instead: YYYY-MM-DD.")
        .optional(),
    }),
    successStatus: 201,
    handle: async ({ query, body, auth, request }) =>
      makeInvoiceFromTransactions(
        db,
        await tenantFor(auth, query.client_id ?? clientIdInBody(request.body)),
        body,
      ),
  });

  defineRoute(router, {
    method: "GET",
    url: "/api/transactions/:id/",
    summary: "One entry, with whether it can be edited, voided or reversed",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: transactionSchema,
    handle: async ({ params, query, auth }) =>
      transactionToApi(await findTransaction(db, await tenantFor(auth, query.client_id), params.id)),
  });

  for (const [method, url] of [
    ["PUT", "/api/transactions/:id/"],
    ["POST", "/api/transactions/:id/edit_transaction/"],
  ] as const) {
    defineRoute(router, {
      method,
      url,
      summary: "Edit an editable entry (full body); its old effect on the balance is replaced by the new one",
      tags,
      access: "user",
      params: recordIdParamsSchema,
      query: recordQuerySchema,
      body: transactionInputSchema,
      response: transactionSchema,
      handle: async ({ params, query, body, auth, request }) =>
        editTransaction(
          db,
          await tenantFor(auth, query.client_id ?? clientIdInBody(request.body)),
          params.id,
          body,
        ),
    });
  }

  defineRoute(router, {
    method: "DELETE",
    url: "/api/transactions/:id/",
    summary: "Delete an editable entry (its effect comes off the balance)",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    successStatus: 204,
    handle: async ({ params, query, auth }) =>
      deleteTransaction(db, await tenantFor(auth, query.client_id), params.id),
  });

  defineRoute(router, {
    method: "POST",
    url: "/api/transactions/:id/void_transaction/",
    summary: "Void an attached entry: posts the voiding entry (the pair nets to zero) and returns it",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: transactionSchema,
    successStatus: 201,
    handle: async ({ params, query, auth, request }) =>
      voidTransaction(db, await tenantFor(auth, query.client_id ?? clientIdInBody(request.body)), params.id),
  });

  defineRoute(router, {
    method: "DELETE",
    url: "/api/transactions/:id/delete_void_transaction/",
    summary: "Delete a new voiding entry (the voided entry counts again)",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    successStatus: 204,
    handle: async ({ params, query, auth }) =>
      deleteVoid(db, await tenantFor(auth, query.client_id), params.id),
  });

  defineRoute(router, {
    method: "POST",
    url: "/api/transactions/:id/reversal/",
    summary: "Reverse an entry that can no longer be edited: posts the offsetting entry and returns it",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: transactionSchema,
    successStatus: 201,
    handle: async ({ params, query, auth, request }) =>
      reverseTransaction(
        db,
        await tenantFor(auth, query.client_id ?? clientIdInBody(request.body)),
        params.id,
      ),
  });

  defineRoute(router, {
    method: "DELETE",
    url: "/api/transactions/:id/delete_reversal/",
    summary: "Delete a reversal not yet billed (the reversed entry counts again)",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    successStatus: 204,
    handle: async ({ params, query, auth }) =>
      deleteReversal(db, await tenantFor(auth, query.client_id), params.id),
  });

  defineRoute(router, {
    method: "POST",
    url: "/api/transactionsroutes/",
    summary:
      "Post one entry to each standard member of a group (route) or each customer (bulk), as one batch",
    tags,
    access: "user",
    query: recordQuerySchema,
    body: transactionBatchSchema,
    successStatus: 201,
    handle: async ({ query, body, auth }) =>
      postBatch(db, await tenantFor(auth, query.client_id ?? body.client), body),
  });

  defineRoute(router, {
    method: "GET",
    url: "/api/csv/customers/transactions/:client/:customer/:code/:codeType/:createdFrom/:createdTo/:serviceFrom/:serviceTo",
    summary: "transactions.csv of the filtered ledger (0 in a segment means not set), streamed",
    tags,
    access: "user",
    params: z.object({
      client: integerParam({ min: 1 }),
      customer: idSegment,
      code: idSegment,
      codeType: z.union([z.literal("0"), z.enum(CODE_TYPES)]),
      createdFrom: dateSegment,
      createdTo: dateSegment,
      serviceFrom: dateSegment,
      serviceTo: dateSegment,
    }),
    produces: "text/csv",
    handle: async ({ params, auth, reply }) => {
      const tenant = await tenantFor(auth, params.client);
      const set = (value: string) => (value === "0" ? undefined : value);
      if (params.createdFrom !== "0" && params.createdTo !== "0" && params.createdFrom > params.createdTo) {
        throw fieldError("createdTo", "The end date is before the start date.");
      }
      const stream = streamTransactionsCsv(db, tenant, {
        customer__id: params.customer || undefined,
        code__id: params.code || undefined,
        code__code_type: params.codeType === "0" ? undefined : params.codeType,
        created__gte: set(params.createdFrom),
        created__lte: set(params.createdTo),
        serviceDate__gte: set(params.serviceFrom),
        serviceDate__lte: set(params.serviceTo),
      });
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="transactions.csv"')
        .send(stream);
    },
  });
}
