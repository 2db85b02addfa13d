// Every action on a ledger entry, invoice or statement, as the server enforces it: the server
// refuses with entryActionRefusal / invoiceActionRefusal, and the records it returns carry the
// actions these functions allow, so the screens offer only what will work.
import {
  INVOICE_OPEN_NO_PDF_MESSAGE,
  STATEMENT_NOT_PROCESSED_MESSAGE,
  invoiceActionRefusal,
  type InvoiceStatus,
} from "../invoices/invoice-rules.js";
import { closedPeriodMessage, inClosedPeriod } from "./closed-period.js";
import { usDate } from "../calendar/calendar-math.js";
import type { CodeType } from "../codes/code-types.js";
import { MARKED_FOR_DELETION_MESSAGE } from "./ledger-effect.js";
import {
  isEditable,
  isReversible,
  isVoidable,
  isVoidDeletable,
  type LedgerEntryState,
} from "./transaction-rules.js";

export const NOT_EDITABLE_MESSAGE = "This transaction can no longer be edited. Void or reverse it instead.";
export const NOT_VOIDABLE_MESSAGE = "This transaction cannot be voided.";
export const NOT_A_DELETABLE_VOID_MESSAGE = "Only a new voiding entry can be deleted.";
export const NOT_REVERSIBLE_MESSAGE = "This transaction cannot be reversed.";
export const NOT_A_REVERSAL_MESSAGE = "This transaction is not a reversal.";
export const BILLED_REVERSAL_MESSAGE = "A billed reversal cannot be deleted.";
export const NOT_ON_INVOICE_MESSAGE = "This transaction is on no invoice.";
export const REFUNDED_OFFSET_MESSAGE =
  "This void or reversal refunded a card or ACH payment through the gateway; it cannot be deleted.";
export const ARCHIVED_CUSTOMER_MESSAGE =
  "This customer is archived. Unarchive it before entering transactions.";

export const ENTRY_ACTIONS = [
  "edit",
  "delete",
  "void",
  "delete_void",
  "reverse",
  "delete_reversal",
  "open_invoice",
] as const;
export type EntryAction = (typeof ENTRY_ACTIONS)[number];

/** What the server checks of an entry beyond its ledger state. */
export type EntryActionState = LedgerEntryState & {
  serviceDate: string;
  /** The client's books closed through this date (null: nothing closed). */
  closedThrough: string | null;
  /** The entry is a void or reversal that refunded a payment through the gateway. */
  refundedThroughGateway: boolean;
  /** Why its customer takes no new business (an edit re-posts it), or null. */
  customerRefusal: "archived" | "marked_for_deletion" | null;
  /** The charge/payment kind of its code: a customer marked for deletion refuses charges. */
  codeType: CodeType;
};

/** A refusal as the server answers it: the message, and the field it names when it names one. */
export type ActionRefusal = { message: string; field?: "service_date" };

function closedRefusal(state: EntryActionState): ActionRefusal | undefined {
  return state.closedThrough !== null && inClosedPeriod(state.serviceDate, state.closedThrough)
    ? { field: "service_date", message: closedPeriodMessage(state.closedThrough) }
    : undefined;
}

/** Why the server refuses this action on the entry, or undefined when it is allowed. */
export function entryActionRefusal(state: EntryActionState, action: EntryAction): ActionRefusal | undefined {
  switch (action) {
    case "edit":
    case "delete": {
      if (!isEditable(state)) return { message: NOT_EDITABLE_MESSAGE };
      const closed = closedRefusal(state);
      if (closed) return closed;
      if (action === "edit" && state.customerRefusal === "archived")
        return { message: ARCHIVED_CUSTOMER_MESSAGE };
      if (action === "edit" && state.customerRefusal === "marked_for_deletion" && state.codeType === "charge")
        return { message: MARKED_FOR_DELETION_MESSAGE };
      return undefined;
    }
    case "void":
      // The void is dated today (or the first open day): the closed period never refuses it.
      return isVoidable(state) ? undefined : { message: NOT_VOIDABLE_MESSAGE };
    case "reverse":
      return isReversible(state) ? undefined : { message: NOT_REVERSIBLE_MESSAGE };
    case "delete_void":
      if (!isVoidDeletable(state)) return { message: NOT_A_DELETABLE_VOID_MESSAGE };
      if (state.refundedThroughGateway) return { message: REFUNDED_OFFSET_MESSAGE };
      return closedRefusal(state);
    case "delete_reversal":
      if (!state.isReversal) return { message: NOT_A_REVERSAL_MESSAGE };
      if (state.refundedThroughGateway) return { message: REFUNDED_OFFSET_MESSAGE };
      if (state.onStatement) return { message: BILLED_REVERSAL_MESSAGE };
      return closedRefusal(state);
    case "open_invoice":
      return state.invoiceStatus === null ? { message: NOT_ON_INVOICE_MESSAGE } : undefined;
  }
}

/** The actions the server accepts on this entry, in the order the screens show them. */
export function entryActions(state: EntryActionState): EntryAction[] {
  return ENTRY_ACTIONS.filter((action) => entryActionRefusal(state, action) === undefined);
}

export const INVOICE_ACTIONS = ["edit", "close", "reopen", "separate", "delete", "pdf"] as const;
export type OfferedInvoiceAction = (typeof INVOICE_ACTIONS)[number];

export type InvoiceActionState = { status: InvoiceStatus };

/** Why the server refuses this action on the invoice, or undefined when it is allowed. */
export function offeredInvoiceRefusal(
  state: InvoiceActionState,
  action: OfferedInvoiceAction,
): string | undefined {
  if (action === "pdf") return state.status === "open" ? INVOICE_OPEN_NO_PDF_MESSAGE : undefined;
  return invoiceActionRefusal(state.status, action);
}

export function invoiceActions(state: InvoiceActionState): OfferedInvoiceAction[] {
  return INVOICE_ACTIONS.filter((action) => offeredInvoiceRefusal(state, action) === undefined);
}

export const STATEMENT_ACTIONS = ["reopen", "reissue", "resend_email", "add_to_pool", "pdf"] as const;
export type StatementAction = (typeof STATEMENT_ACTIONS)[number];

export const STATEMENT_REPLACED_MESSAGE =
  "This statement was replaced by its corrected version; work on the corrected one.";
export const STATEMENT_PROVES_ITSELF_MESSAGE =
  "This statement still proves itself: there is nothing to correct.";
export const CUSTOMER_NO_EMAIL_MESSAGE = "The customer has no email address.";
export const STATEMENT_QUEUED_FOR_POOL_MESSAGE = "This statement is already waiting for the next print pool.";

/** Reissuing waits for the books to be closed again through the statement's date. */
export function reissueWhileOpenMessage(statementDate: string): string {
  return `Close the books through ${usDate(statementDate)} again before reissuing: a corrected statement is final once issued.`;
}

export type StatementActionState = {
  status: InvoiceStatus;
  /** A corrected version replaced it (it is kept as it was sent). */
  replaced?: boolean;
  /** What the doctor says of it now (statementMismatches); unknown counts as proving. */
  proves?: boolean;
  /** The client's books are closed through the statement's date (reissue waits until they are). */
  periodClosed?: boolean;
  statementDate?: string;
  /** A reprint of it waits for the client's next print pool. */
  queuedForPool?: boolean;
  /** The customer has an email address to resend it to (unknown counts as yes). */
  hasEmail?: boolean;
};

/** Why the server refuses this action on the statement, or undefined (its PDF is always there). */
export function statementActionRefusal(
  state: StatementActionState,
  action: StatementAction,
): string | undefined {
  if (action === "pdf") return undefined;
  if (state.replaced) return STATEMENT_REPLACED_MESSAGE;
  switch (action) {
    case "reopen":
      return state.status === "processed" ? undefined : STATEMENT_NOT_PROCESSED_MESSAGE;
    case "reissue":
      if (state.proves !== false) return STATEMENT_PROVES_ITSELF_MESSAGE;
      return state.periodClosed ? undefined : reissueWhileOpenMessage(state.statementDate ?? "");
    case "add_to_pool":
      return state.queuedForPool ? STATEMENT_QUEUED_FOR_POOL_MESSAGE : undefined;
    case "resend_email":
      return state.hasEmail === false ? CUSTOMER_NO_EMAIL_MESSAGE : undefined;
  }
}

export function statementActions(state: StatementActionState): StatementAction[] {
  return STATEMENT_ACTIONS.filter((action) => statementActionRefusal(state, action) === undefined);
}
