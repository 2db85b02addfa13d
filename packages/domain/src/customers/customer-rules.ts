import { ZIP_MESSAGE } from "../api/field-schemas.js";
import { CITY_REQUIRED_MESSAGE, STATE_REQUIRED_MESSAGE } from "../clients/client-schemas.js";
export const PULL_FLAGS = ["A", "T", "P", "N", "L", "E", "M"] as const;
export type PullFlag = (typeof PULL_FLAGS)[number];
export const PULL_FLAG_LABELS: Record<PullFlag, string> = {
  A: "Mail",
  T: "Temporary pull (this month only)",
  P: "Permanent pull (every month)",
  N: "No bill this month only",
  L: "Leave (no bill every month)",
  E: "Email only",
  M: "Email and mail",
};

export const BI_PULL_FLAGS = ["M", "E", "B"] as const;
export type BiPullFlag = (typeof BI_PULL_FLAGS)[number];
export const BI_PULL_FLAG_LABELS: Record<BiPullFlag, string> = { M: "Mail", E: "Email", B: "Email and mail" };

export const CUSTOMER_FINANCE_FLAGS = ["C", "1", "2", "3", "N"] as const;
export const CUSTOMER_FINANCE_FLAG_LABELS: Record<(typeof CUSTOMER_FINANCE_FLAGS)[number], string> = {
  C: "Use the client's setting",
  "1": "Late fees from 30 days",
  "2": "Late fees from 60 days",
  "3": "Late fees from 90 days",
  N: "No late fees",
};

export const TAX_STATUSES = ["T", "F"] as const;
export const DELETE_FLAGS = ["D", "S"] as const;
export type DeleteFlag = (typeof DELETE_FLAGS)[number];
export const DELETE_FLAG_LABELS: Record<DeleteFlag, string> = {
  D: "Delete when zero (billing stopped)",
  S: "Delete when zero (keep billing)",
};

/** Invoice flag from the statement flag: email only gives email, email and mail gives both, else mail. */
export function deriveBiPullFlag(pullFlag: PullFlag): BiPullFlag {
  if (pullFlag === "E") return "E";
  if (pullFlag === "M") return "B";
  return "M";
}

/** Bills go by email when the statement flag is E or M, or the invoice flag is E or B. */
export function needsEmail(pullFlag: string, biPullFlag: string): boolean {
  return pullFlag === "E" || pullFlag === "M" || biPullFlag === "E" || biPullFlag === "B";
}

export type ArchiveState = "active" | "delete-when-zero" | "delete-when-zero-keep-billing" | "archived";

/** How a customer row reads in the list. */
export function archiveState(customer: { deleted: boolean; deleteFlag: string | null }): ArchiveState {
  if (customer.deleted) return "archived";
  if (customer.deleteFlag === "D") return "delete-when-zero";
  if (customer.deleteFlag === "S") return "delete-when-zero-keep-billing";
  return "active";
}

/** Display name: company, or first and last name. */
export function customerDisplayName(customer: {
  firstName: string;
  lastName: string;
  companyName: string;
}): string {
  const person = `${customer.firstName} ${customer.lastName}`.trim();
  return customer.companyName.trim() || person;
}

export const NAME_REQUIRED_MESSAGE = "You must include at least a first name, last name, or company name.";
export const NAME_REQUIRED_ON_UPDATE_MESSAGE =
  "You must include at least a first name or last name or a company name.";
export const EMAIL_REQUIRED_MESSAGE = "You must include an email or they will not get emailed bills.";
export const ADDRESS_INVALID_MESSAGE = "Please correct the address fields.";
export const ADDRESS_LINE_REQUIRED_MESSAGE = "Address line 1 required";

export type MailingAddress = { address1: string; city: string; state: string; zip: string };

/**
 * The spec's address rule, on every create and update path: line 1, city and state required, zip
 * exactly 5 digits. The field messages by field; empty when the address is complete. The run uses
 * the same rule to tell a statement that cannot be mailed.
 */
export function mailingAddressProblems(
  address: MailingAddress,
): Partial<Record<keyof MailingAddress, string>> {
  const problems: Partial<Record<keyof MailingAddress, string>> = {};
  if (!address.address1.trim()) problems.address1 = ADDRESS_LINE_REQUIRED_MESSAGE;
  if (!address.city.trim()) problems.city = CITY_REQUIRED_MESSAGE;
  if (!address.state.trim()) problems.state = STATE_REQUIRED_MESSAGE;
  if (!/^\d{5}$/.test(address.zip.trim())) problems.zip = ZIP_MESSAGE;
  return problems;
}
export const RECURRING_REQUIRED_MESSAGE =
  "Recurring charges must have a code, rate, start month, and end month.";
export const STORED_DESCRIPTION_TOO_LONG =
  "Description is too long. Please make sure it is under 60 characters.";
export const STORED_AMOUNT_REQUIRED_MESSAGE = "Stored amounts must have a code and a rate.";

/**
 * A recurring charge's start date: the first day it may bill (none: the day it is entered). Like
 * the billing it governs, it may not precede the customer's account (the run never bills before the
 * open date); a later or future date (a service starting next month) is the user's to choose.
 */
export function recurringStartDateProblem(
  startDate: string | null | undefined,
  openDate: string,
): string | null {
  if (!startDate || startDate >= openDate) return null;
  const [year, month, day] = openDate.split("-");
  return `The start date can't be before the customer's open date (${month}/${day}/${year}).`;
}

export const PULL_EXPLANATIONS_FOR_CUSTOMERS = ["0", "1", "2", "3"] as const;
