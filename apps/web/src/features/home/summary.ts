import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

/** GET /api/summary-data/client/{id}: counts are numbers, amounts decimal strings. */
export type ClientSummaryData = {
  totalCustomers: number;
  totalTransactions: number;
  arBalanceAsOfDate: string | null;
  arCurrentBalance: string;
  arOverdue30: string;
  arOverdue60: string;
  arOverdue90: string;
  mtdCharges: string;
  mtdPayments: string;
  mtdDebitAdj: string;
  mtdCreditAdj: string;
  mtdTotal: string;
  newBalance: string;
  obexTotalBalance: string | null;
  obexDateOfLastPayment: string | null;
};

export function useClientSummary(clientId: number | null) {
  return useQuery({
    queryKey: ["summary", clientId],
    queryFn: ({ signal }) =>
      apiFetch<ClientSummaryData>(`/summary-data/client/${String(clientId)}`, { signal }),
    enabled: clientId !== null,
  });
}
