import { z } from "zod";
import { amountString, dateString, timestampString } from "../api/page-schema.js";
import { jobRunSchema } from "../jobs/job-run.js";
import { customerNameFields } from "./customer-records.js";

// What the payment endpoints answer. Public answers (the pay-a-statement page) carry only what the
// page needs: never ids of other records, never more than a mask of a payment account.

export const STORED_METHOD_KINDS = ["card", "ach"] as const;
export type StoredMethodKind = (typeof STORED_METHOD_KINDS)[number];

/** A stored payment method as shown: the gateway keeps the account; we keep its token and a mask. */
export const storedMethodSchema = z.object({
  kind: z.enum(STORED_METHOD_KINDS),
  /** PAYMENT_ACCOUNT_MASK, e.g. "xxxxxxxxxxxx1111". */
  mask: z.string(),
  /** CARD_TYPE (VISA, MC, AMEX, DISC); "" for ACH. */
  card_type: z.string(),
  /** MMYY for cards, "" for ACH. */
  expiry: z.string(),
  stored_at: timestampString,
});
export type StoredMethod = z.infer<typeof storedMethodSchema>;

/** The statement a public lookup found (null on the staff form). */
export const payableStatementSchema = z.object({
  statement_num: z.number().int(),
  statement_date: dateString,
  due_date: dateString,
  /** The due date as the statement prints it ("Due by 12/26/2026", "Due on receipt, 11/26/2026"). */
  due_label: z.string(),
  amount_due: amountString,
  /** An autopay customer's statement: nothing to pay by hand; the notice says what is charged when. */
  autopay_notice: z.string().nullable(),
  /**
   * The statement the pay link named, when a newer statement has since carried its balance forward:
   * the page then shows the customer's latest statement (this one), whose amount due is the one the
   * documents list shows as payable; null when the link names the latest.
   */
  replaced_statement: z.object({ statement_num: z.number().int(), statement_date: dateString }).nullable(),
});

/**
 * Payment info (spec part 1 §3: hasStoredPaymentInfo, amount, accountbalance, address1, address2,
 * zip, company, customer_no, names), plus what the page shows: whom it pays and how.
 * amount: what the form starts at (the statement's amount due when still owed, else the balance).
 */
export const paymentInfoSchema = z.object({
  hasStoredPaymentInfo: z.boolean(),
  amount: amountString,
  accountbalance: amountString,
  address1: z.string(),
  address2: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  email: z.string(),
  company: z.string(),
  customer_no: z.number().int(),
  /** The customer's name as the statement prints it. */
  names: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  client_name: z.string(),
  /**
   * Whether the client takes card and ACH payments (a gateway key stored): without it the pay page
   * says so and shows no form, and statements carry no pay link.
   */
  takes_card_payments: z.boolean(),
  statement: payableStatementSchema.nullable(),
  stored_method: storedMethodSchema.nullable(),
  autopay_flag: z.boolean(),
});
export type PaymentInfo = z.infer<typeof paymentInfoSchema>;

/**
 * What the public page is told (get-payment-info, get-link-info): the spec's payment info and the
 * statement, with the city and state beside the address and ZIP the spec's response carries (the
 * billing form starts filled), never the customer's email.
 */
export const publicPaymentInfoSchema = paymentInfoSchema.omit({ email: true });
export type PublicPaymentInfo = z.infer<typeof publicPaymentInfoSchema>;

/** POST /api/customers/{id}/payment-link/ (201): a single-use link to store a method, 7 days. */
export const paymentLinkSchema = z.object({
  url: z.string(),
  expires_at: timestampString,
});
export type PaymentLink = z.infer<typeof paymentLinkSchema>;

/**
 * How one attempt ended. pending: saved, its gateway call not ended yet; unknown: the call ended
 * without a usable answer (lost, partial, no TRANS_ID, a STATUS outside 1/0/E), looked up later and
 * settled only by evidence.
 */
export const PAYMENT_ATTEMPT_STATUSES = [
  "pending",
  "unknown",
  "approved",
  "declined",
  "error",
  "duplicate",
  "skipped",
] as const;
export type PaymentAttemptStatus = (typeof PAYMENT_ATTEMPT_STATUSES)[number];

/**
 * Payment result (spec: name1, name2, amount_response, message_response). message_response follows
 * paymentPageMessage, so the page's rule (contains 'approved' or 'auth/tkt') agrees with approved.
 */
export const paymentResultSchema = z.object({
  name1: z.string(),
  name2: z.string(),
  amount_response: amountString,
  message_response: z.string(),
  approved: z.boolean(),
  status: z.enum(PAYMENT_ATTEMPT_STATUSES),
  /** The customer's balance after this attempt. */
  account_balance: amountString,
});
export type PaymentResult = z.infer<typeof paymentResultSchema>;

/** One customer's line in a card run (Process CC or autopay). */
export const bulkPaymentResultSchema = paymentResultSchema.extend({
  customer_id: z.number().int(),
  customer_no: z.number().int(),
});
export type BulkPaymentResult = z.infer<typeof bulkPaymentResultSchema>;

/** POST /api/customers/make-bulk-payments/ (202): the card run's job, to follow with GET /api/card-runs/{id}/. */
export const cardRunStartedSchema = z.object({ job: jobRunSchema });

/** GET /api/card-runs/{id}/: the run's progress and its results so far (paged by limit/offset). */
export const cardRunSchema = z.object({
  job: jobRunSchema,
  /** "bulk" (Process CC) or "autopay" (after a production run). */
  source: z.enum(["bulk", "autopay"]),
  approved_count: z.number().int(),
  approved_total: amountString,
  declined_count: z.number().int(),
  pending_count: z.number().int(),
  count: z.number().int(),
  paymentResults: z.array(bulkPaymentResultSchema),
});
export type CardRun = z.infer<typeof cardRunSchema>;

/** A customer with a stored method, as Process CC lists them. */
export const creditCardCustomerSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  ...customerNameFields,
  total_balance: amountString,
  last_pay_date: dateString.nullable(),
  autopay_flag: z.boolean(),
  bluepay_transaction_message: z.string(),
  stored_method: storedMethodSchema,
});
export type CreditCardCustomer = z.infer<typeof creditCardCustomerSchema>;

/** One attempt as staff see it (the customer's payment history, declines included). */
export const paymentAttemptSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  customer_id: z.number().int(),
  customer_no: z.number().int(),
  customer_name: z.string(),
  /** sale (a payment), auth (storing a method), refund or void (taking a payment back). */
  kind: z.enum(["sale", "auth", "refund", "void"]),
  /** Where it came from: page (public), staff, bulk (Process CC) or autopay. */
  source: z.enum(["page", "staff", "bulk", "autopay"]),
  method: z.enum(STORED_METHOD_KINDS),
  amount: amountString,
  status: z.enum(PAYMENT_ATTEMPT_STATUSES),
  message: z.string(),
  gateway_trans_id: z.string(),
  mask: z.string(),
  card_type: z.string(),
  /** The payment entry it posted (approved sales), else null. */
  transaction_id: z.number().int().nullable(),
  card_run_id: z.number().int().nullable(),
  created: timestampString,
  settled_at: timestampString.nullable(),
  /** Unknown past the lookup window (NEEDS_CHECKING_AFTER_MS): staff should look the attempt up at the gateway. */
  needs_checking: z.boolean(),
  /**
   * The email this attempt sent: a receipt (approved sale), a declined-autopay notice or a refund
   * notice (approved refund or void); null if none.
   */
  receipt: z
    .object({
      kind: z.enum(["receipt", "declined", "refund"]),
      status: z.enum(["queued", "sending", "sent", "failed"]),
      recipient: z.string(),
      sent_at: timestampString.nullable(),
    })
    .nullable(),
  /** A declined autopay charge with no approved payment of the customer since: staff should follow up. */
  needs_attention: z.boolean(),
});
export type PaymentAttempt = z.infer<typeof paymentAttemptSchema>;
