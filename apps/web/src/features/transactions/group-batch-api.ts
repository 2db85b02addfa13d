import {
  MAX_PAGE_SIZE,
  isCodeType,
  multiplyRateByQuantity,
  nonNegativeAmountSchema,
  postingRefusal,
  quantitySchema,
  sumAmounts,
  type PostingRefusal,
} from "@cyclebill/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
import type { Page } from "@cyclebill/domain";
import type { CustomerRecord } from "@cyclebill/domain";
import { formatAmount } from "../../lib/format";
import { useRefreshLedger } from "./transactions-api";

// Spec section 8 and point 5: the exact texts of the by-group and bulk screens.
export const MISSING_CODE_MESSAGE = "You must fill in a group code.";
export const MISSING_GROUP_MESSAGE = "No group selected. Please select a group before adding transactions.";
export const ZERO_CREATED_MESSAGE =
  "0 transactions were created please check the creation criteria and be sure a code and group are selected";
export const UNKNOWN_GROUP = "Unknown Group";
export const BUSY_MESSAGE =
  "Adding transactions. Please do not reload or leave this page until they have all been created.";

export type BatchType = "route" | "bulk";

/** Body of POST /api/transactionsroutes/ (see transactionBatchSchema). Money is a decimal string. */
export type BatchBody = {
  client: number;
  transaction_type: BatchType;
  route?: number;
  customers: number[];
  code: number;
  service_date: string;
  amount: string;
  quantity: string;
  unitofmeasure: number;
  /** Rows priced differently from the default amount and quantity. */
  customer_amounts: { customer: number; amount: string; quantity: string }[];
  /** Add even to customers who have the same entry from the last 24 hours (the clerk said Yes). */
  force?: boolean;
};

export type BatchResult = {
  count: number;
  total: string;
  transaction_type: BatchType;
  description: string;
  route_name: string | null;
  skipped: number;
  /** Every customer left out, with the reason. */
  refused: { customer: number; customer_no: number; customer_name: string; reason: RefusalReason }[];
};

export type RefusalReason = PostingRefusal;

const REFUSAL_TEXT: Record<RefusalReason, string> = {
  archived: "archived",
  marked_for_deletion: "marked for deletion, takes no new charges",
  unknown: "no longer a customer of this client",
};

/** The table's badge for a customer who will be left out. */
export const REFUSAL_BADGE: Record<RefusalReason, string> = {
  archived: "Archived, will be left out",
  marked_for_deletion: "Marked for deletion, will be left out",
  unknown: "Not a customer, will be left out",
};

type NamedRefusal = { customer_no: number | string; customer_name: string; reason: RefusalReason };

/** "901 Archived Member (archived); 902 …": every one, by name, with the reason. */
export function refusedNames(refused: readonly NamedRefusal[]): string {
  return refused
    .map((one) => `${one.customer_no} ${one.customer_name} (${REFUSAL_TEXT[one.reason]})`)
    .join("; ");
}

/** " 2 customers were left out: 901 Archived Member (archived); 902 …": every one, by name. */
export function refusedNote(result: BatchResult): string {
  if (result.refused.length === 0) return "";
  const verb = result.refused.length === 1 ? "customer was" : "customers were";
  return ` ${result.refused.length} ${verb} left out: ${refusedNames(result.refused)}.`;
}

/**
 * Why the server will leave this customer out of a batch with this code (null: it takes the
 * entry). The domain's posting rule, the one the ledger writer applies, so the preview counts
 * exactly the customers the batch will post to.
 */
export function memberRefusal(member: BatchMember, codeType: string | null): RefusalReason | null {
  const type = codeType !== null && isCodeType(codeType) ? codeType : null;
  return postingRefusal({ deleted: member.archived, deleteFlag: member.delete_flag }, type);
}

/** A customer the batch may post to, as the table lists it. */
export type BatchMember = {
  id: number;
  customer_no: number | string;
  customer_name: string;
  /** 1-based place in the group; null for the all-customers list. */
  position: number | null;
  /** Marked for deletion: the server leaves such customers out of charge batches. */
  delete_flag: "D" | "S" | null;
  /** Archived: the server refuses every entry for it, and the result names it. */
  archived: boolean;
};

/** A row's own amount and quantity; absent fields follow the batch defaults. */
export type RowOverride = { amount?: string; quantity?: string };

export { today as todayIso } from "../../lib/business-date";

/** The amount as the server will store it (2 places), or null when it is not a non-negative number. */
export function parseAmount(value: string): string | null {
  const parsed = nonNegativeAmountSchema.safeParse(value.trim());
  return parsed.success ? parsed.data : null;
}

export function parseQuantity(value: string): string | null {
  const parsed = quantitySchema.safeParse(value.trim());
  return parsed.success ? parsed.data : null;
}

/** Rate × quantity, exactly; null when either is not valid. */
export function lineAmount(amount: string, quantity: string): string | null {
  const rate = parseAmount(amount);
  const qty = parseQuantity(quantity);
  return rate === null || qty === null ? null : multiplyRateByQuantity(rate, qty);
}

export function sumLines(lines: readonly string[]): string {
  return lines.length === 0 ? "0.00" : sumAmounts(lines);
}

/** The success alert (spec section 8): count, type, description, group name and total. */
export function batchResultMessage(result: BatchResult): string {
  const noun = result.count === 1 ? "transaction was" : "transactions were";
  const target =
    result.transaction_type === "route" ? `group ${result.route_name ?? UNKNOWN_GROUP}` : "all customers";
  return `${result.count} ${result.transaction_type} ${noun} created: ${result.description} — ${target}, total ${formatAmount(result.total)}`;
}

/** The route detail's label is "customer_no name"; the table shows the two apart. */
export function nameFromLabel(label: string, customerNo: number | string): string {
  const prefix = `${customerNo} `;
  return label.startsWith(prefix) ? label.slice(prefix.length) : label;
}

/** Every active (not archived) customer of the client, by number: the add-to-all list. */
export function useActiveCustomers(clientId: number) {
  return useQuery({
    queryKey: ["customers", clientId, "list", "batch-all"],
    queryFn: ({ signal }) =>
      apiFetch<Page<CustomerRecord>>("/customers/", {
        query: { client_id: clientId, limit: MAX_PAGE_SIZE, offset: 0, ordering: "customer_no" },
        signal,
      }),
  });
}

/** Posts a group or bulk batch; the screen reports field errors itself. */
export function usePostBatch(clientId: number) {
  const refreshLedger = useRefreshLedger();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BatchBody) =>
      apiFetch<BatchResult>("/transactionsroutes/", {
        method: "POST",
        query: { client_id: clientId },
        body,
        handles: [400],
      }),
    // Not awaited: the busy overlay ends with the post, not with the refetches.
    onSuccess: () => {
      void refreshLedger();
      // Balances and month-to-date figures moved.
      void queryClient.invalidateQueries({ queryKey: ["customers", clientId] });
    },
  });
}
