import { mailingAddressProblems, type MailingAddress } from "../customers/customer-rules.js";
import { compareAmounts, isNegativeAmount, isZeroAmount } from "../money/money.js";

/** How a produced statement goes out; pulled statements are produced but not sent. */
export type StatementDelivery = "mail" | "email" | "both" | "pulled";

/** Why a customer gets no statement this run. */
export type NoStatementReason =
  | "no_bill_this_month" // pull flag N
  | "no_bill" // pull flag L
  | "delete_flag" // delete flag D: billing stopped
  | "group_skip"
  | "group_pause"
  | "under_minimum" // criteria 01: under $5.00
  | "credit_balance" // criteria 02
  | "zero_balance" // criteria 03
  // Cannot deliver as its flags say: never put in a pool or an email, listed as an exception.
  | "no_mailing_address" // mail (A) or both (M) without line 1, city, state and a 5-digit zip
  | "no_email_address"; // email (E) or both (M) without an email address

export const NO_STATEMENT_REASONS: readonly NoStatementReason[] = [
  "no_bill_this_month",
  "no_bill",
  "delete_flag",
  "group_skip",
  "group_pause",
  "under_minimum",
  "credit_balance",
  "zero_balance",
  "no_mailing_address",
  "no_email_address",
];

/** The reasons that are delivery exceptions (the customer's record needs fixing), not billing choices. */
export const CANNOT_DELIVER_REASONS: readonly NoStatementReason[] = [
  "no_mailing_address",
  "no_email_address",
];

export const NO_STATEMENT_LABELS: Record<NoStatementReason, string> = {
  no_bill_this_month: "No bill this month (N)",
  no_bill: "No bill every month (L)",
  delete_flag: "Marked for deletion, billing stopped (D)",
  group_skip: "Group: skip this cycle",
  group_pause: "Group: paused",
  under_minimum: "Balance under $5.00 (criteria 01)",
  credit_balance: "Credit balance (criteria 02)",
  zero_balance: "Zero balance (criteria 03)",
  no_mailing_address: "Cannot deliver: no valid mailing address",
  no_email_address: "Cannot deliver: no email address",
};

export type StatementDecision =
  { produce: true; delivery: StatementDelivery } | { produce: false; reason: NoStatementReason };

export type StatementInput = {
  pullFlag: string;
  deleteFlag: string | null;
  /** The customer's group processing statuses (standard, skip, pause); empty when in no group. */
  groupFlags: readonly string[];
  /** The client's bill production criteria: 00, 01, 02, 03 (99 and others: all). */
  billCriteria: string;
  /** The customer's balance after this run's postings. */
  newBalance: string;
  /** Where a mailed statement goes and where an emailed one goes. */
  mailingAddress: MailingAddress;
  email: string;
};

const MINIMUM_BILL = "5.00";

/** Whether a customer gets a statement this run, and how it goes out. */
export function decideStatement(input: StatementInput): StatementDecision {
  if (input.deleteFlag === "D") return { produce: false, reason: "delete_flag" };
  if (input.groupFlags.includes("pause")) return { produce: false, reason: "group_pause" };
  if (input.groupFlags.includes("skip")) return { produce: false, reason: "group_skip" };
  if (input.pullFlag === "N") return { produce: false, reason: "no_bill_this_month" };
  if (input.pullFlag === "L") return { produce: false, reason: "no_bill" };
  if (input.billCriteria === "01" && compareAmounts(input.newBalance, MINIMUM_BILL) < 0)
    return { produce: false, reason: "under_minimum" };
  if (input.billCriteria === "02" && isNegativeAmount(input.newBalance))
    return { produce: false, reason: "credit_balance" };
  if (input.billCriteria === "03" && isZeroAmount(input.newBalance))
    return { produce: false, reason: "zero_balance" };
  const delivery = deliveryOf(input.pullFlag);
  if (
    (delivery === "mail" || delivery === "both") &&
    Object.keys(mailingAddressProblems(input.mailingAddress)).length > 0
  )
    return { produce: false, reason: "no_mailing_address" };
  if ((delivery === "email" || delivery === "both") && !input.email.trim())
    return { produce: false, reason: "no_email_address" };
  return { produce: true, delivery };
}

/** Why a statement cannot be delivered, in the customer record's words (the preview's "and why"). */
export function cannotDeliverDetail(
  input: Pick<StatementInput, "mailingAddress" | "email">,
  reason: NoStatementReason,
): string | null {
  if (reason === "no_email_address") return "The customer has no email address.";
  if (reason !== "no_mailing_address") return null;
  return Object.values(mailingAddressProblems(input.mailingAddress)).join("; ");
}

function deliveryOf(pullFlag: string): StatementDelivery {
  switch (pullFlag) {
    case "E":
      return "email";
    case "M":
      return "both";
    case "T":
    case "P":
      return "pulled";
    default:
      return "mail";
  }
}

/** The pull flags that last one run (T: pull this statement, N: no statement this month). */
export const ONE_RUN_PULL_FLAGS = ["T", "N"] as const;
/** What a one-run pull flag becomes after the run. */
export const PULL_FLAG_AFTER_ONE_RUN = "A";
/** The route plan's bill indicator that lasts one cycle, and what it becomes after the run. */
export const ONE_RUN_GROUP_FLAG = "skip";
export const GROUP_FLAG_AFTER_ONE_RUN = "standard";

/** The pull flag after a run: the one-month flags T and N go back to A; the rest stay. */
export function pullFlagAfterRun(pullFlag: string): string {
  return (ONE_RUN_PULL_FLAGS as readonly string[]).includes(pullFlag) ? PULL_FLAG_AFTER_ONE_RUN : pullFlag;
}

/** A group's processing status after a run: skip lasts one cycle; pause stays. */
export function groupFlagAfterRun(flag: string): string {
  return flag === ONE_RUN_GROUP_FLAG ? GROUP_FLAG_AFTER_ONE_RUN : flag;
}
