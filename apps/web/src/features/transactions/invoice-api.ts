import type { InvoiceDetail, InvoiceStatus } from "@cyclebill/domain";
import { useMutation, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
import { useRefreshLedger } from "./transactions-api";

/** One invoice as GET /api/invoices/{id}/ returns it: the domain's record with its lines. */
export type Invoice = InvoiceDetail;

export const STATUS_LABELS: Record<InvoiceStatus, string> = {
  open: "Open",
  closed: "Closed",
  processed: "Sent",
};

export const invoiceKey = (clientId: number | null, id: number) => ["invoices", "one", clientId, id] as const;

export function useInvoice(clientId: number | null, id: number) {
  return useQuery({
    queryKey: invoiceKey(clientId, id),
    queryFn: ({ signal }) =>
      apiFetch<Invoice>(`/invoices/${id}/`, { query: { client_id: clientId }, signal }),
    enabled: clientId !== null && Number.isInteger(id) && id > 0,
  });
}

export function addInvoice(clientId: number | null, customer: number, invoiceDate: string) {
  return apiFetch<Invoice>("/invoices/", {
    method: "POST",
    query: { client_id: clientId },
    body: { customer, invoice_date: invoiceDate },
  });
}

export type InvoiceCommand =
  | { kind: "close" }
  | { kind: "reopen" }
  | { kind: "separate" }
  | { kind: "delete" }
  | { kind: "date"; invoiceDate: string };

/** The Edit Invoice buttons; each refreshes the invoice and every ledger list. */
export function useInvoiceCommand(clientId: number | null, id: number) {
  const refresh = useRefreshLedger();
  return useMutation({
    mutationFn: (command: InvoiceCommand) => {
      const query = { client_id: clientId };
      switch (command.kind) {
        case "close":
          return apiFetch<unknown>(`/invoices/${id}/close/`, { method: "POST", query });
        case "reopen":
          return apiFetch<unknown>(`/invoices/${id}/reopen/`, { method: "POST", query });
        case "separate":
          return apiFetch<unknown>(`/invoices/${id}/separateTransactionsFromInvoice/`, {
            method: "POST",
            query,
          });
        case "delete":
          return apiFetch<unknown>(`/invoices/${id}/`, { method: "DELETE", query });
        case "date":
          return apiFetch<unknown>(`/invoices/${id}/`, {
            method: "PUT",
            query,
            body: { invoice_date: command.invoiceDate },
          });
      }
    },
    onSettled: refresh,
  });
}
