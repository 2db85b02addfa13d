import {
  reasonQuerySchema,
  CODE_TYPES,
  amountString,
  calendarDate,
  calendarDateOrZero,
  integerParam,
  listQuerySchema,
  pageSchema,
  postingDateSchema,
  recordIdParamsSchema,
  recordQuerySchema,
  transactionBatchSchema,
  transactionInputSchema,
  transactionMassUpdateSchema,
  transactionRecordSchema,
  transactionTotalsSchema,
} from "@cyclebill/domain";
import { z } from "zod";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError } from "../../http/errors.js";
import { defineRoute, type Router } from "../../http/router.js";
import { paymentGatewayOf } from "../payments/payment-gateway.js";
import { refundGatewayPayment } from "../payments/refund-payment.js";
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
import { postingDate } from "./posting-date.js";
import { streamTransactionsCsv } from "./transactions-csv.js";
import { findTransaction, transactionToApi, type TransactionOutput } from "./transaction-view.js";
import { withAuditReason } from "../audit/audit-context.js";

const tags = ["Transactions"];
/** Make Invoice from Selected: the new open invoice. */
const madeInvoiceSchema = z.object({
  id: z.number().int(),
  invoice_num: z.number().int(),
  transaction_count: z.number().int(),
});
/** A group (route) or every-customer batch: what was posted, and who was left out. */
const batchResultSchema = z.object({
  count: z.number().int(),
  total: amountString,
  transaction_type: z.enum(["route", "bulk"]),
  description: z.string(),
  route_name: z.string().nullable(),
  skipped: z.number().int().describe("customers left out: archived, or marked for deletion for a charge"),
  refused: z
    .array(
      z.object({
        customer: z.number().int(),
        customer_no: z.number().int(),
        customer_name: z.string(),
        reason: z.enum(["unknown", "archived", "marked_for_deletion"]),
      }),
    )
    .describe("every customer left out, with the reason"),
});
/** A path segment of the CSV download: 0 means "not set". */
const idSegment = integerParam({ min: 0 });
const dateSegment = calendarDateOrZero();

export function registerTransactionRoutes(router: Router): void {
  const { db, config } = router.deps;
  // Read when a request comes (describing the API has no configuration).
  const gateway = () => paymentGatewayOf(config);

  defineRoute(router, {
    name: "listTransactions",
    method: "GET",
    url: "/api/transactions/",
    summary:
      "Search the ledger: filters customer__id, code__id, code__code_type, created__gte/lte, serviceDate__gte/lte, historical, invoice",
    tags,
    access: "tenant",
    query: listQuerySchema.extend(transactionFiltersSchema.shape),
    response: pageSchema(transactionRecordSchema),
    handle: async ({ query, tenant }) => listTransactions(db, tenant, query, query),
  });

  defineRoute(router, {
    name: "totalTransactions",
    method: "GET",
    url: "/api/transactions/get_total_amount/",
    summary:
      "Totals of the filtered set: totalAmount (sum of amounts), netAmount (net change to balances), count",
    tags,
    access: "tenant",
    query: recordQuerySchema.extend(transactionFiltersSchema.shape),
    response: transactionTotalsSchema,
    handle: async ({ query, tenant }) => totalTransactions(db, tenant, query),
  });

  defineRoute(router, {
    name: "transactionPostingDate",
    method: "GET",
    url: "/api/transactions/posting_date/",
    summary:
      "The date of service a new entry left to today gets now: today, or the first open day when the books are closed through today",
    tags,
    access: "tenant",
    query: recordQuerySchema,
    response: postingDateSchema,
    handle: async ({ tenant }) => postingDate(db, tenant),
  });

  defineRoute(router, {
    name: "createTransaction",
    method: "POST",
    url: "/api/transactions/",
    summary:
      "Post one entry; an equal entry of the last 24 hours answers 'Duplicate Transaction Detected' unless force",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: transactionInputSchema,
    response: transactionRecordSchema,
    successStatus: 201,
    handle: async ({ body, tenant }) => createTransaction(db, tenant, body),
  });

  defineRoute(router, {
    name: "massUpdateTransactions",
    method: "POST",
    url: "/api/transactions/mass_update/",
    summary:
      "Mass update: change customer, code, description, serviceDate, rate, quantity or uom of the selected entries",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: transactionMassUpdateSchema,
    response: pageSchema(transactionRecordSchema),
    handle: async ({ body, tenant }) => massUpdateTransactions(db, tenant, body),
  });

  defineRoute(router, {
    name: "makeInvoiceFromTransactions",
    method: "POST",
    url: "/api/transactions/make_invoice/",
    summary: "Make Invoice from Selected: one open invoice with the selected entries of one customer",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: z.object({
      ids: z
        .array(integerParam({ min: 1 }))
        .min(1)
        .max(5000),
      invoice_date: calendarDate().optional(),
    }),
    response: madeInvoiceSchema,
    successStatus: 201,
    handle: async ({ body, tenant }) => makeInvoiceFromTransactions(db, tenant, body),
  });

  defineRoute(router, {
    name: "getTransaction",
    method: "GET",
    url: "/api/transactions/:id/",
    summary: "One entry, with whether it can be edited, voided or reversed",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: transactionRecordSchema,
    handle: async ({ params, tenant }) => transactionToApi(await findTransaction(db, tenant, params.id)),
  });

  for (const [name, method, url] of [
    ["updateTransaction", "PUT", "/api/transactions/:id/"],
    ["editTransaction", "POST", "/api/transactions/:id/edit_transaction/"],
  ] as const) {
    defineRoute(router, {
      name,
      method,
      url,
      summary: "Edit an editable entry (full body); its old effect on the balance is replaced by the new one",
      tags,
      access: "tenant",
      clientIdFrom: "query-or-body",
      params: recordIdParamsSchema,
      query: recordQuerySchema,
      body: transactionInputSchema,
      response: transactionRecordSchema,
      handle: async ({ params, body, tenant }) => editTransaction(db, tenant, params.id, body),
    });
  }

  /** DELETE of one entry: 204, its effect off the balance. */
  const defineRemoval = (
    name: string,
    url: string,
    summary: string,
    remove: (tenant: TenantContext, id: number) => Promise<void>,
  ) =>
    defineRoute(router, {
      name,
      method: "DELETE",
      url,
      summary: `${summary}; reason: why (kept in the audit trail)`,
      tags,
      access: "tenant",
      params: recordIdParamsSchema,
      query: reasonQuerySchema,
      successStatus: 204,
      handle: async ({ params, query, tenant }) =>
        withAuditReason(query.reason, () => remove(tenant, params.id)),
    });
  /** POST of a void or a reversal: 201 with the offsetting entry. */
  const defineOffset = (
    name: string,
    url: string,
    summary: string,
    kind: "void" | "reversal",
    post: (tenant: TenantContext, id: number) => Promise<TransactionOutput>,
  ) =>
    defineRoute(router, {
      name,
      method: "POST",
      url,
      summary,
      tags,
      access: "tenant",
      clientIdFrom: "query-or-body",
      params: recordIdParamsSchema,
      query: recordQuerySchema,
      response: transactionRecordSchema,
      successStatus: 201,
      // A card or ACH payment is refunded through the gateway first; the offset posts only when approved.
      handle: async ({ params, tenant }) =>
        (await refundGatewayPayment(db, gateway(), tenant, params.id, kind)) ?? post(tenant, params.id),
    });

  defineRemoval(
    "deleteTransaction",
    "/api/transactions/:id/",
    "Delete an editable entry (its effect comes off the balance)",
    (tenant, id) => deleteTransaction(db, tenant, id),
  );
  defineOffset(
    "voidTransaction",
    "/api/transactions/:id/void_transaction/",
    "Void an attached entry: posts the voiding entry (the pair nets to zero) and returns it",
    "void",
    (tenant, id) => voidTransaction(db, tenant, id),
  );
  defineRemoval(
    "deleteVoidTransaction",
    "/api/transactions/:id/delete_void_transaction/",
    "Delete a new voiding entry (the voided entry counts again)",
    (tenant, id) => deleteVoid(db, tenant, id),
  );
  defineOffset(
    "reverseTransaction",
    "/api/transactions/:id/reversal/",
    "Reverse an entry that can no longer be edited: posts the offsetting entry and returns it",
    "reversal",
    (tenant, id) => reverseTransaction(db, tenant, id),
  );
  defineRemoval(
    "deleteReversal",
    "/api/transactions/:id/delete_reversal/",
    "Delete a reversal not yet billed (the reversed entry counts again)",
    (tenant, id) => deleteReversal(db, tenant, id),
  );

  defineRoute(router, {
    name: "postTransactionBatch",
    method: "POST",
    url: "/api/transactionsroutes/",
    summary:
      "Post one entry to each standard member of a group (route) or each customer (bulk), as one batch; if any of them has an equal entry of the last 24 hours, 'Duplicate Transaction Detected' naming them (duplicates) and nothing posted, unless force",
    tags,
    access: "tenant",
    // The batch form names its client in the body as client; the query wins.
    clientIdFrom: ({ query, body }) => query.client_id ?? body.client,
    query: recordQuerySchema,
    body: transactionBatchSchema,
    response: batchResultSchema,
    successStatus: 201,
    handle: async ({ body, tenant }) => postBatch(db, tenant, body),
  });

  defineRoute(router, {
    name: "exportTransactionsCsv",
    method: "GET",
    url: "/api/csv/customers/transactions/:client/:customer/:code/:codeType/:createdFrom/:createdTo/:serviceFrom/:serviceTo",
    summary: "transactions.csv of the filtered ledger (0 in a segment means not set), streamed",
    tags,
    access: "tenant",
    clientIdFrom: ({ params }) => params.client,
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
    handle: async ({ params, tenant, reply }) => {
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
