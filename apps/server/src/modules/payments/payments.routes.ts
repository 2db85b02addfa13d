import {
  pageSchema,
  paymentAttemptSchema,
  paymentAttemptsQuerySchema,
  paymentInfoRequestSchema,
  paymentInfoSchema,
  paymentLinkInfoRequestSchema,
  paymentLinkSchema,
  paymentPayloadSchema,
  publicPaymentInfoSchema,
  paymentResultSchema,
  recordIdParamsSchema,
  recordQuerySchema,
} from "@cyclebill/domain";
import { z } from "zod";
import { defineRoute, type Router } from "../../http/router.js";
import { listPaymentAttempts } from "./list-attempts.js";
import { makePayment } from "./make-payment.js";
import { paymentGatewayOf } from "./payment-gateway.js";
import {
  customerPaymentInfo,
  deleteStoredMethod,
  linkPaymentInfo,
  publicPaymentInfo,
} from "./payment-info.js";
import { findPaymentLink, issuePaymentLink } from "./payment-links.js";
import { admitPaymentLookup, paymentLookupFound } from "./payment-throttle.js";
import { enqueueReceipts } from "./enqueue-receipts.js";
import { settlePendingAttempts } from "./settle-attempts.js";
import { registerNeedsCheckingRoutes } from "./needs-checking.routes.js";

const settleSummarySchema = z.object({ settled: z.number().int(), pending: z.number().int() });

const tags = ["Payments"];

/** The public pay-a-statement endpoints and the staff's payment form, stored methods and attempts. */
export function registerPaymentRoutes(router: Router): void {
  const { db, config, jobs } = router.deps;
  // Read when a request comes (describing the API has no configuration).
  const gateway = () => paymentGatewayOf(config);
  const sendReceipts = (clientId: number) => enqueueReceipts(jobs, router.app.log, clientId);

  defineRoute(router, {
    name: "getStatementPaymentInfo",
    alsoAnswers: [404, 429],
    method: "POST",
    url: "/api/payments/get-payment-info/",
    summary:
      "Public: the statement and customer a pay token ({client id}-{pay code}) names, for the payment page (rate-limited per address)",
    tags,
    access: "public",
    body: paymentInfoRequestSchema,
    response: publicPaymentInfoSchema,
    handle: async ({ body, request }) => {
      await admitPaymentLookup(db, request.ip);
      const info = await publicPaymentInfo(db, body.statementId);
      await paymentLookupFound(db, request.ip);
      return info;
    },
  });

  defineRoute(router, {
    name: "getPaymentLinkInfo",
    alsoAnswers: [404, 429],
    method: "POST",
    url: "/api/payments/get-link-info/",
    summary:
      "Public: the customer a staff-issued link (to store a payment method, single use, 7 days) names (rate-limited per address)",
    tags,
    access: "public",
    body: paymentLinkInfoRequestSchema,
    response: publicPaymentInfoSchema,
    handle: async ({ body, request }) => {
      await admitPaymentLookup(db, request.ip);
      const { customer } = await findPaymentLink(db, body.paymentLink);
      await paymentLookupFound(db, request.ip);
      return linkPaymentInfo(db, customer);
    },
  });

  defineRoute(router, {
    name: "issuePaymentLink",
    method: "POST",
    url: "/api/customers/:id/payment-link/",
    summary:
      "A single-use link (7 days) the customer opens to store a payment method and choose autopay from outside the office; the page pays nothing",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: paymentLinkSchema,
    successStatus: 201,
    handle: ({ params, tenant, auth }) =>
      issuePaymentLink(db, tenant, params.id, { userId: auth.user.id, publicUrl: config.publicUrl }),
  });

  defineRoute(router, {
    name: "makePayment",
    alsoAnswers: [404, 409, 422, 429],
    method: "POST",
    url: "/api/payments/make-payment/customer/",
    summary:
      "Pay (or, with recordPayment, store a method by a $0.00 AUTH): the public page names the customer by statementId, staff by client_id and customer_id. 200 approved or declined; send an Idempotency-Key header so a retry never charges twice (409 while the first is still pending, 422 when the key names a different payment). From the public page: more than 0, at most the balance due, the saved method only for the statement's amount due; storing a method takes a staff-issued paymentLink. Approved payments email a receipt",
    tags,
    access: "public",
    body: paymentPayloadSchema,
    response: paymentResultSchema,
    handle: ({ body, auth, request }) => {
      const header = request.headers["idempotency-key"];
      return makePayment(db, gateway(), {
        auth,
        body,
        idempotencyKey: Array.isArray(header) ? header[0] : header,
        address: request.ip,
        afterAnswer: sendReceipts,
      });
    },
  });

  defineRoute(router, {
    name: "getCustomerPaymentInfo",
    method: "GET",
    url: "/api/customers/:id/get-payment-info/",
    summary:
      "The staff payment form's start: balance, address, stored method (mask, card type, expiry), autopay",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: paymentInfoSchema,
    handle: ({ params, tenant }) => customerPaymentInfo(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "deleteCustomerPaymentInfo",
    method: "DELETE",
    url: "/api/customers/:id/delete-payment-info/",
    summary: "Forget the customer's stored payment method (autopay goes off with it)",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    successStatus: 204,
    handle: ({ params, tenant }) => deleteStoredMethod(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "listPaymentAttempts",
    method: "GET",
    url: "/api/payment-attempts/",
    summary:
      "Every card or ACH attempt of the client (sales, stored methods, refunds; approved, declined, pending), newest first; by customer_id or card_run_id",
    tags,
    access: "tenant",
    query: paymentAttemptsQuerySchema,
    response: pageSchema(paymentAttemptSchema),
    handle: ({ query, tenant }) => listPaymentAttempts(db, tenant, query),
  });

  defineRoute(router, {
    name: "settlePaymentAttempts",
    method: "POST",
    url: "/api/payment-attempts/settle/",
    summary:
      "Ask the gateway what became of the client's pending attempts (answers lost in transit), by their ORDER_ID; approved sales post then. Never charges again",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    response: settleSummarySchema,
    handle: async ({ tenant }) => {
      const summary = await settlePendingAttempts(db, tenant.clientId, null, gateway());
      if (summary.settled > 0) await sendReceipts(tenant.clientId);
      return summary;
    },
  });
  registerNeedsCheckingRoutes(router);
}
