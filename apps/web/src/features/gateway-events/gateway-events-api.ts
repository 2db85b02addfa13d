import type { GatewayEventKindApi, GatewayEventRecord, Page } from "@cyclebill/domain";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

// What the gateway reported after its first answer (GET /api/gateway/events/): returns,
// chargebacks and their reversals, notifications of change, re-presentments, settlements.

export function useGatewayEvents(
  clientId: number,
  options: { customerId?: number; kind?: GatewayEventKindApi; limit?: number; date?: string } = {},
) {
  return useQuery({
    queryKey: [
      "gateway-events",
      clientId,
      options.customerId ?? null,
      options.kind ?? null,
      options.limit ?? 50,
      options.date ?? null,
    ],
    queryFn: ({ signal }) =>
      apiFetch<Page<GatewayEventRecord>>("/gateway/events/", {
        query: {
          client_id: clientId,
          limit: options.limit ?? 50,
          ...(options.kind ? { kind: options.kind } : {}),
          ...(options.customerId === undefined ? {} : { customer_id: options.customerId }),
          ...(options.date ? { date: options.date } : {}),
        },
        signal,
      }),
  });
}

/** The kinds an owner follows up: money that came back, or an account the bank corrected. */
export const FOLLOW_UP_KINDS: readonly GatewayEventKindApi[] = [
  "returned",
  "charged_back",
  "chargeback_reversed",
  "noc",
  "re_presented",
];

export const KIND_LABELS: Record<GatewayEventKindApi, string> = {
  settled: "Settled",
  returned: "Returned",
  charged_back: "Charged back",
  chargeback_reversed: "Chargeback reversed",
  noc: "Bank correction",
  re_presented: "Presented again",
};
