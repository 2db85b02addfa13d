import type {
  BulkPaymentRequest,
  CardRun,
  CreditCardCustomer,
  JobRun,
  Page,
  PaymentAttempt,
  PaymentInfo,
  PaymentLink,
  PublicPaymentInfo,
  PaymentPayload,
  PaymentResult,
} from "@cyclebill/domain";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

// The payment calls (issue 16's contract): the public page's lookup and payment, the staff form's
// stored method, a customer's attempts, Process CC's list, bulk run and card run.

/** cardRunStartedSchema's shape. */
export type CardRunStarted = { job: JobRun };

/** POST /api/payments/get-payment-info/ with the statement's pay token; a 404 is the page's own message. */
export function usePublicPaymentInfo(statementId: string | null) {
  return useQuery({
    queryKey: ["payments", "public-info", statementId],
    queryFn: ({ signal }) =>
      apiFetch<PublicPaymentInfo>("/payments/get-payment-info/", {
        method: "POST",
        body: { statementId },
        signal,
        handles: [400, 404, 429],
      }),
    enabled: statementId !== null && statementId !== "",
    retry: false,
    staleTime: 0,
  });
}

/** POST /api/payments/get-link-info/: whom a staff-issued link stores a method for; 404 once used or expired. */
export function usePaymentLinkInfo(paymentLink: string) {
  return useQuery({
    queryKey: ["payments", "link-info", paymentLink],
    queryFn: ({ signal }) =>
      apiFetch<PublicPaymentInfo>("/payments/get-link-info/", {
        method: "POST",
        body: { paymentLink },
        signal,
        handles: [400, 404, 429],
      }),
    enabled: paymentLink !== "",
    retry: false,
    staleTime: 0,
  });
}

/** POST /api/customers/{id}/payment-link/ (201): a single-use link (7 days) to store a method. */
export function issuePaymentLink(clientId: number, customerId: number): Promise<PaymentLink> {
  return apiFetch<PaymentLink>(`/customers/${String(customerId)}/payment-link/`, {
    method: "POST",
    query: { client_id: clientId },
  });
}

/** GET /api/customers/{id}/get-payment-info/: the staff form's customer and its stored method. */
export function useCustomerPaymentInfo(clientId: number | null, customerId: number | null) {
  return useQuery({
    queryKey: customerPaymentInfoKey(clientId, customerId),
    queryFn: ({ signal }) =>
      apiFetch<PaymentInfo>(`/customers/${String(customerId)}/get-payment-info/`, {
        query: { client_id: clientId },
        signal,
      }),
    enabled: customerId !== null,
    staleTime: 0,
  });
}

export function customerPaymentInfoKey(clientId: number | null, customerId: number | null) {
  return ["payments", "customer-info", clientId, customerId] as const;
}

/**
 * POST /api/payments/make-payment/customer/ with one Idempotency-Key per submit: a retry with the
 * same key answers the first attempt's result and never charges twice. Errors are the form's own.
 */
export function makePayment(payload: PaymentPayload, idempotencyKey: string): Promise<PaymentResult> {
  return apiFetch<PaymentResult>("/payments/make-payment/customer/", {
    method: "POST",
    body: payload,
    headers: { "Idempotency-Key": idempotencyKey },
    handles: [400, 404, 409, 429],
  });
}

/** DELETE /api/customers/{id}/delete-payment-info/ (also ends autopay). */
export function useDeleteStoredMethod(clientId: number, customerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<void>(`/customers/${String(customerId)}/delete-payment-info/`, {
        method: "DELETE",
        query: { client_id: clientId },
      }),
    onSuccess: () => invalidateCustomerPayments(queryClient, clientId, customerId),
  });
}

export function invalidateCustomerPayments(
  queryClient: ReturnType<typeof useQueryClient>,
  clientId: number,
  customerId: number,
) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ["payments"] }),
    queryClient.invalidateQueries({ queryKey: ["customers"] }),
    queryClient.invalidateQueries({ queryKey: customerPaymentInfoKey(clientId, customerId) }),
  ]);
}

export const ATTEMPTS_PAGE_SIZE = 15;

/** GET /api/payment-attempts/?customer_id=: the customer's attempts, newest first, declines included. */
export function usePaymentAttempts(clientId: number, customerId: number, page: number) {
  return useQuery({
    queryKey: ["payments", "attempts", clientId, customerId, page],
    queryFn: ({ signal }) =>
      apiFetch<Page<PaymentAttempt>>("/payment-attempts/", {
        query: {
          client_id: clientId,
          customer_id: customerId,
          limit: ATTEMPTS_PAGE_SIZE,
          offset: (page - 1) * ATTEMPTS_PAGE_SIZE,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export type CreditCardSortField = "customer_no" | "customer_name" | "total_balance" | "last_pay_date";

export type CreditCardListParams = {
  page: number;
  limit: number;
  ordering: string;
  query: string;
  hasPendingCharges: boolean;
};

/**
 * GET /api/payment-attempts/?needs_attention=true: declined autopay charges the customer has paid
 * nothing since (of one customer, or the whole client's list).
 */
export function useAttemptsNeedingAttention(clientId: number, customerId?: number) {
  return useQuery({
    queryKey: ["payments", "attempts", clientId, "needs-attention", customerId ?? null],
    queryFn: ({ signal }) =>
      apiFetch<Page<PaymentAttempt>>("/payment-attempts/", {
        query: {
          client_id: clientId,
          needs_attention: "true",
          limit: 100,
          ...(customerId === undefined ? {} : { customer_id: customerId }),
        },
        signal,
      }),
  });
}

/** GET /api/customers/credit-card-customers/: customers with a stored method, 500 a page. */
export function useCreditCardCustomers(clientId: number, params: CreditCardListParams) {
  return useQuery({
    queryKey: ["payments", "credit-card-customers", clientId, params],
    queryFn: ({ signal }) =>
      apiFetch<Page<CreditCardCustomer>>("/customers/credit-card-customers/", {
        query: {
          client_id: clientId,
          limit: params.limit,
          page: params.page,
          ordering: params.ordering,
          query: params.query || null,
          has_pending_charges: params.hasPendingCharges ? "true" : null,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** POST /api/customers/make-bulk-payments/ (202): the card run's job. */
export function startBulkPayments(clientId: number, request: BulkPaymentRequest): Promise<CardRunStarted> {
  return apiFetch<CardRunStarted>("/customers/make-bulk-payments/", {
    method: "POST",
    query: { client_id: clientId },
    body: request,
  });
}

export const CARD_RUN_RESULTS_LIMIT = 500;

function cardRunFinished(run: CardRun): boolean {
  return run.job.status === "succeeded" || run.job.status === "failed";
}

/** GET /api/card-runs/{id}/, polled every second until the job has finished. */
export function useCardRun(clientId: number, runId: number | null, page = 1) {
  return useQuery({
    queryKey: ["payments", "card-runs", clientId, runId, page],
    queryFn: ({ signal }) =>
      apiFetch<CardRun>(`/card-runs/${String(runId)}/`, {
        query: {
          client_id: clientId,
          limit: CARD_RUN_RESULTS_LIMIT,
          offset: (page - 1) * CARD_RUN_RESULTS_LIMIT,
        },
        signal,
      }),
    enabled: runId !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data && cardRunFinished(query.state.data) ? false : 1000),
  });
}

/** POST /api/payment-attempts/settle/: ask the gateway what became of pending attempts (never charges). */
export function useSettlePendingAttempts(clientId: number, customerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<{ settled: number; pending: number }>("/payment-attempts/settle/", {
        method: "POST",
        query: { client_id: clientId },
      }),
    onSuccess: () => invalidateCustomerPayments(queryClient, clientId, customerId),
  });
}
