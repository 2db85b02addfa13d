// What may be done to a customer's archive state, as the server enforces it: the server refuses with
// customerActionRefusal, and every customer record carries the actions customerActions allows, so
// the screens offer only what will work (issue 41.6: no "Remove the archive flag" without a flag).
import { formatUsd, isZeroAmount } from "../money/money.js";

export const CUSTOMER_ALREADY_ARCHIVED_MESSAGE = "This customer is already archived.";
export const CUSTOMER_NOT_ARCHIVED_MESSAGE = "This customer is not archived.";
export const NO_ARCHIVE_FLAG_MESSAGE = "This customer has no archive flag to remove.";
export const customerHasBalanceMessage = (balance: string) =>
  `This customer has a balance of ${formatUsd(balance)}. Choose to archive it when the balance reaches zero instead.`;

export const CUSTOMER_ACTIONS = [
  /** Archive now (DELETE): only at a zero balance. */
  "archive",
  /** Mark it to be archived when its balance reaches zero (delete flag D or S). */
  "mark_for_archive",
  /** Take the delete flag off again. */
  "remove_archive_flag",
  /** Bring an archived customer back (its history is not kept). */
  "unarchive",
] as const;
export type CustomerAction = (typeof CUSTOMER_ACTIONS)[number];

export type CustomerActionState = { deleted: boolean; deleteFlag: string | null; balance: string };

/** Why the server refuses this action on the customer, or undefined when it is allowed. */
export function customerActionRefusal(
  state: CustomerActionState,
  action: CustomerAction,
): string | undefined {
  switch (action) {
    case "archive":
    case "mark_for_archive":
      if (state.deleted) return CUSTOMER_ALREADY_ARCHIVED_MESSAGE;
      return action === "archive" && !isZeroAmount(state.balance)
        ? customerHasBalanceMessage(state.balance)
        : undefined;
    case "remove_archive_flag":
      if (state.deleted) return CUSTOMER_ALREADY_ARCHIVED_MESSAGE;
      return state.deleteFlag === null ? NO_ARCHIVE_FLAG_MESSAGE : undefined;
    case "unarchive":
      if (!state.deleted) return CUSTOMER_NOT_ARCHIVED_MESSAGE;
      return isZeroAmount(state.balance) ? undefined : customerHasBalanceMessage(state.balance);
  }
}

/** The actions the server accepts on this customer, in the order the screens show them. */
export function customerActions(state: CustomerActionState): CustomerAction[] {
  return CUSTOMER_ACTIONS.filter((action) => customerActionRefusal(state, action) === undefined);
}
