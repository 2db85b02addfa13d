import { z } from "zod";
import { integerParam, listQuerySchema, queryFlag } from "../api/list-query.js";
import { nonNegativeAmountSchema } from "../money/money-schemas.js";
import { compareAmounts, formatUsd } from "../money/money.js";
import { ACH_STORE_NEEDS_PAYMENT_MESSAGE } from "./ach-entry-class.js";

// The payment contract (spec part 1 §3-§5, part 2 "bulk payments"): what the payment page, the
// staff payment form, Process CC and autopay send. Card numbers and CVVs pass through these schemas
// to the gateway and nowhere else: nothing that parses them may store or log them.

export const PAYMENT_METHODS = ["cc", "check", "useSaved"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const STATEMENT_NOT_FOUND_MESSAGE = "Unable to find statement with given ID please try again";
export const CARD_NUMBER_MESSAGE = "Enter a valid card number.";
export const CVV_MESSAGE = "Enter the 3 or 4 digit security code from the card.";
export const EXP_MONTH_MESSAGE = "Enter the expiry month as MM (01-12).";
export const EXP_YEAR_MESSAGE = "Enter the expiry year as YY.";
export const CARD_EXPIRED_MESSAGE = "This card has expired.";
export const ROUTING_MESSAGE = "Enter a valid 9-digit routing number.";
export const ACCOUNT_NUMBER_MESSAGE = "Enter a bank account number of 4 to 17 digits.";
export const PAYMENT_AMOUNT_MESSAGE = "Enter an amount greater than 0.00.";
export const MAX_PAYMENT_AMOUNT = "100000.00";
export const PAYMENT_AMOUNT_TOO_LARGE_MESSAGE = "A single payment cannot be more than 100,000.00.";
export const SAVED_METHOD_TO_STORE_MESSAGE = "Enter a card or bank account to store.";
export const NO_STORED_METHOD_MESSAGE = "This customer has no stored payment method.";
export const NO_GATEWAY_KEY_MESSAGE = "This client does not take card payments (no payment gateway key).";
export const PAYMENT_PENDING_MESSAGE =
  "This payment is still being processed. Check the customer's payments before trying again.";

/** The public page pays at most what is owed (issue 29). */
export function paymentOverBalanceMessage(balanceDue: string): string {
  return compareAmounts(balanceDue, "0.00") > 0
    ? `The amount cannot be more than the balance due of ${formatUsd(balanceDue)}.`
    : "This account has no balance due.";
}
/** The stored method pays the statement's amount due from the public page, nothing else. */
export function savedMethodAmountMessage(amountDue: string): string {
  return compareAmounts(amountDue, "0.00") > 0
    ? `The saved payment method can pay only the statement's amount due of ${formatUsd(amountDue)}.`
    : "The saved payment method cannot be used: this statement has no amount due.";
}
export const PUBLIC_SAVE_METHOD_MESSAGE =
  "To store a payment method or turn autopay on or off, use the link the office sends you.";
export const PAYMENT_LINK_INVALID_MESSAGE =
  "This link has expired or was already used. Ask the office for a new one.";

/** Card and account numbers as people type them: spaces and dashes are ignored. */
const digitsOnly = z
  .string()
  .trim()
  .max(40)
  .transform((value) => value.replace(/[\s-]/g, ""));

const text = (max: number) => z.string().trim().max(max).default("");

/** The Luhn check every card number passes. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function isCardNumber(digits: string): boolean {
  return /^\d{13,19}$/.test(digits) && luhnValid(digits);
}

/** ABA routing numbers carry a check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function isRoutingNumber(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  const weighted = (at: number, weight: number) =>
    weight * ((d[at] ?? 0) + (d[at + 3] ?? 0) + (d[at + 6] ?? 0));
  return (weighted(0, 3) + weighted(1, 7) + weighted(2, 1)) % 10 === 0;
}

/** A card is good through the last day of its expiry month; today is the business date (YYYY-MM-DD). */
export function cardExpired(expMonth: string, expYear: string, today: string): boolean {
  const [year, month] = today.split("-").map(Number);
  const expiry = 2000 + Number(expYear);
  return expiry < (year ?? 0) || (expiry === year && Number(expMonth) < (month ?? 0));
}

/**
 * The payment payload (spec part 1 §3), sent by the public page (with statementId, the pay token
 * of the statement's link) and by staff (client_id and customer_id name the customer).
 * recordPayment true stores the method ($0.00 AUTH) and charges nothing; false charges amount now.
 */
export const paymentPayloadSchema = z
  .object({
    client_id: integerParam({ min: 1 }).optional(),
    customer_id: integerParam({ min: 1 }).optional(),
    customer_no: integerParam({ min: 0 }).optional(),
    /** The pay token from the statement's link ({client}-{pay code}); the public page's only key. */
    statementId: z.string().trim().max(80).optional(),
    /** A staff-issued link's token: lets the customer store a method (recordPayment) from outside. */
    paymentLink: z.string().trim().max(120).optional(),
    paymentMethod: z.enum(PAYMENT_METHODS),
    ccNum: digitsOnly.default(""),
    cvv: digitsOnly.default(""),
    expMonth: z.string().trim().max(2).default(""),
    expYear: z.string().trim().max(4).default(""),
    checkRoutingNum: digitsOnly.default(""),
    checkAccountNum: digitsOnly.default(""),
    /** C checking (the default), S savings. */
    checkAccountType: z.enum(["C", "S"]).default("C"),
    amount: nonNegativeAmountSchema,
    firstName: text(60),
    lastName: text(60),
    billingAddress1: text(100),
    billingAddress2: text(100),
    city: text(60),
    state: text(30),
    country: text(60),
    postalCode: text(20),
    phone1: text(20),
    phone2: text(20),
    phone3: text(20),
    email: text(254),
    recordPayment: z.boolean().default(false),
    savePaymentInfo: z.boolean().default(false),
    isClientInitiated: z.boolean().default(false),
    /** With a stored method: charge this customer's statements automatically after each run. */
    autoPay: z.boolean().default(false),
    /** Staff entering a bank account: a signed written authorization is on file (the debit goes PPD). */
    achSignedAgreement: z.boolean().default(false),
  })
  .superRefine((payment, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (payment.paymentMethod === "cc") {
      if (!isCardNumber(payment.ccNum)) issue("ccNum", CARD_NUMBER_MESSAGE);
      if (!/^\d{3,4}$/.test(payment.cvv)) issue("cvv", CVV_MESSAGE);
      if (!/^(0[1-9]|1[0-2])$/.test(payment.expMonth)) issue("expMonth", EXP_MONTH_MESSAGE);
      if (!/^\d{2}$/.test(payment.expYear)) issue("expYear", EXP_YEAR_MESSAGE);
    }
    if (payment.paymentMethod === "check") {
      if (!isRoutingNumber(payment.checkRoutingNum)) issue("checkRoutingNum", ROUTING_MESSAGE);
      if (!/^\d{4,17}$/.test(payment.checkAccountNum)) issue("checkAccountNum", ACCOUNT_NUMBER_MESSAGE);
    }
    if (payment.recordPayment && payment.paymentMethod === "useSaved")
      issue("paymentMethod", SAVED_METHOD_TO_STORE_MESSAGE);
    // BluePay takes no $0.00 AUTH for ACH: a bank account is stored by its first sale.
    if (payment.recordPayment && payment.paymentMethod === "check")
      issue("paymentMethod", ACH_STORE_NEEDS_PAYMENT_MESSAGE);
    if (!payment.recordPayment && compareAmounts(payment.amount, "0.00") <= 0)
      issue("amount", PAYMENT_AMOUNT_MESSAGE);
    if (compareAmounts(payment.amount, MAX_PAYMENT_AMOUNT) > 0)
      issue("amount", PAYMENT_AMOUNT_TOO_LARGE_MESSAGE);
  });
export type PaymentPayload = z.infer<typeof paymentPayloadSchema>;

/** POST /api/payments/get-payment-info/: the pay token of a statement's link. */
export const paymentInfoRequestSchema = z.object({ statementId: z.string().trim().min(1).max(80) });

/** POST /api/payments/get-link-info/: the token of a staff-issued link to store a method. */
export const paymentLinkInfoRequestSchema = z.object({ paymentLink: z.string().trim().min(1).max(120) });

/** POST /api/customers/make-bulk-payments/: the customers to charge their balance. */
export const bulkPaymentRequestSchema = z.object({
  client_id: integerParam({ min: 1 }).optional(),
  ids: z
    .array(integerParam({ min: 1 }))
    .min(1, "Select at least one customer.")
    .max(10_000, "Select at most 10,000 customers per run."),
});
export type BulkPaymentRequest = z.infer<typeof bulkPaymentRequestSchema>;
/** A second bulk run started while one of the client's card runs is still queued or running (409). */
export const CARD_RUN_IN_PROGRESS_MESSAGE =
  "A card run of this client is still in progress. Wait for it to finish before starting another.";

/** The card run that blocks a start: which one, and when it started (or, for autopay, was due). */
export type BlockingCardRun = {
  id: number;
  source: "bulk" | "autopay";
  /** "YYYY-MM-DD HH:MM" in the provider's time zone. */
  startedAt: string;
  /** Autopay only: the charge date its statements announced. */
  dueDate: string | null;
};

/** The 409's detail: the message above, naming the run and when, so the clerk knows what to wait for. */
export function cardRunInProgressMessage(run: BlockingCardRun): string {
  const which =
    run.source === "autopay"
      ? `autopay card run ${run.id}, due ${run.dueDate ?? run.startedAt.slice(0, 10)}`
      : `card run ${run.id} (Process CC), started ${run.startedAt}`;
  return `A card run of this client is still in progress: ${which}. Wait for it to finish before starting another.`;
}

/** GET /api/customers/credit-card-customers/: customers with a stored method (500 a page by default). */
export const creditCardCustomersQuerySchema = listQuerySchema.extend({
  query: z.string().trim().max(100).optional(),
  has_pending_charges: queryFlag.optional(),
});
export type CreditCardCustomersQuery = z.infer<typeof creditCardCustomersQuerySchema>;
export const CREDIT_CARD_CUSTOMERS_PAGE_SIZE = 500;

/** GET /api/payment-attempts/: every card or ACH attempt of the client, newest first. */
export const paymentAttemptsQuerySchema = listQuerySchema.extend({
  customer_id: integerParam({ min: 1 }).optional(),
  card_run_id: integerParam({ min: 1 }).optional(),
  /** Only declined autopay charges not followed by an approved payment (customers to follow up). */
  needs_attention: queryFlag.optional(),
});
export type PaymentAttemptsQuery = z.infer<typeof paymentAttemptsQuerySchema>;
