import {
  ARCHIVED_CUSTOMER_MESSAGE,
  MARKED_FOR_DELETION_MESSAGE,
  postingRefusal as domainPostingRefusal,
  type CodeType,
  type PostingRefusal,
} from "@cyclebill/domain";
import { fieldError, nonFieldError } from "../../http/errors.js";
import type { LockedCustomer } from "./lock-customers.js";

export { ARCHIVED_CUSTOMER_MESSAGE };
export const UNKNOWN_CUSTOMER_MESSAGE = "Invalid customer - object does not exist.";

export type RefusalReason = PostingRefusal;

/**
 * Why a new entry may not go to this (locked) customer, or null. The rule is the domain's, so the
 * batch screens' preview leaves out exactly the customers the ledger writer refuses.
 */
export function postingRefusal(
  customer: LockedCustomer | undefined,
  codeType: CodeType,
): RefusalReason | null {
  return domainPostingRefusal(customer, codeType);
}

export function refusalError(reason: RefusalReason) {
  switch (reason) {
    case "unknown":
      return fieldError("customer", UNKNOWN_CUSTOMER_MESSAGE);
    case "archived":
      return nonFieldError(ARCHIVED_CUSTOMER_MESSAGE);
    case "marked_for_deletion":
      return nonFieldError(MARKED_FOR_DELETION_MESSAGE);
  }
}

export function assertPostable(customer: LockedCustomer | undefined, codeType: CodeType): void {
  const reason = postingRefusal(customer, codeType);
  if (reason) throw refusalError(reason);
}
