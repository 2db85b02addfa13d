import { z } from "zod";
import { integerParam } from "../api/list-query.js";
import { calendarDate } from "../calendar/calendar-date.js";
import { TRANSACTION_DESCRIPTION_TOO_LONG } from "../codes/code-schemas.js";
import { multiplyRateByQuantity } from "../money/money.js";
import { nonNegativeAmountSchema, quantitySchema, rateSchema } from "../money/money-schemas.js";

export const DUPLICATE_TRANSACTION_MESSAGE = "Duplicate Transaction Detected";
export const DUPLICATE_WINDOW_HOURS = 24;

/**
 * The second line of a refused batch (after DUPLICATE_TRANSACTION_MESSAGE): who already has the
 * entry. Names are "customer_no name"; a long list is cut after ten.
 */
export function batchDuplicateMessage(names: readonly string[]): string {
  const shown = names.slice(0, 10).join(", ");
  const more = names.length > 10 ? ` and ${names.length - 10} more` : "";
  const who = names.length === 1 ? "1 customer already has" : `${names.length} customers already have`;
  return (
    `${who} this entry (same code, amount and date of service) from the last ${DUPLICATE_WINDOW_HOURS} ` +
    `hours: ${shown}${more}. Nothing was added. Add it again only if it is meant twice.`
  );
}

export type LedgerEntryState = {
  transactionStatus: "new" | "attached";
  transactionType:
    "user_or_scanner" | "route" | "bulk" | "voids_a_transaction" | "invoice" | "recurring" | "late_fee";
  /** The code's number: system codes are negative. */
  codeNumber: number;
  voided: boolean;
  isReversal: boolean;
  isReversed: boolean;
  /** Status of the invoice the entry is on, if any. */
  invoiceStatus: "open" | "closed" | "processed" | null;
  onStatement: boolean;
};

/**
 * Editable: a new, non-voiding entry of a user code on no invoice, or on an invoice still open
 * (the Edit Invoice screen). Voided, reversed and billed entries are fixed by void or reversal.
 */
export function isEditable(entry: LedgerEntryState): boolean {
  if (entry.transactionType === "voids_a_transaction" || entry.codeNumber <= 0) return false;
  if (entry.voided || entry.isReversal || entry.isReversed || entry.onStatement) return false;
  if (entry.invoiceStatus === null) return entry.transactionStatus === "new";
  return entry.invoiceStatus === "open";
}

/** Voidable: an attached (invoiced) entry not yet voided, on no invoice or on one still open. */
export function isVoidable(entry: LedgerEntryState): boolean {
  if (entry.transactionType === "voids_a_transaction" || entry.voided || entry.isReversal || entry.isReversed)
    return false;
  if (entry.transactionStatus !== "attached") return false;
  return entry.invoiceStatus === null || entry.invoiceStatus === "open";
}

/** A voiding entry can be taken back while it is new. */
export function isVoidDeletable(entry: LedgerEntryState): boolean {
  return (
    entry.transactionType === "voids_a_transaction" && entry.transactionStatus === "new" && !entry.onStatement
  );
}

/** A reversal offsets an entry that was billed (on a statement) or otherwise cannot be edited. */
export function isReversible(entry: LedgerEntryState): boolean {
  if (entry.transactionType === "voids_a_transaction" || entry.voided || entry.isReversal || entry.isReversed)
    return false;
  return !isEditable(entry);
}

/** "Amount 5.00 does not match rate × quantity (1.00). ..." */
export function amountMismatchMessage(given: string, computed: string): string {
  return `Amount ${given} does not match rate × quantity (${computed}). Leave amount out, or send ${computed}.`;
}

/** One ledger entry as staff enter it. The amount is always rate × quantity; a given amount is checked, not trusted. */
export const transactionInputSchema = z
  .object({
    customer: integerParam({ min: 1 }),
    code: integerParam({ min: 1 }),
    description: z.string().trim().max(60, TRANSACTION_DESCRIPTION_TOO_LONG).default(""),
    quantity: quantitySchema.default("1"),
    rate: rateSchema,
    amount: nonNegativeAmountSchema.optional(),
    serviceDate: calendarDate().optional(),
    unitofmeasure: integerParam({ min: 1 }).default(1),
    transaction_type: z.enum(["user_or_scanner", "route", "bulk"]).default("user_or_scanner"),
    force: z.boolean().default(false),
    /** Post straight onto this open invoice of the same customer (the Edit Invoice screen's add row). */
    invoice: integerParam({ min: 1 }).optional(),
  })
  // Compared after both are rounded to cents the way the ledger rounds, so "1" for 0.33333 × 3 is fine.
  .superRefine((entry, ctx) => {
    if (entry.amount === undefined) return;
    const computed = multiplyRateByQuantity(entry.rate, entry.quantity);
    if (entry.amount !== computed) {
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: amountMismatchMessage(entry.amount, computed),
      });
    }
  });
export type TransactionInput = z.input<typeof transactionInputSchema>;

/** Fields a mass update may change on the selected entries (only those given change). */
export const transactionMassUpdateSchema = z.object({
  ids: z
    .array(integerParam({ min: 1 }))
    .min(1)
    .max(5000),
  changes: z
    .object({
      customer: integerParam({ min: 1 }).optional(),
      code: integerParam({ min: 1 }).optional(),
      description: z.string().trim().max(60, TRANSACTION_DESCRIPTION_TOO_LONG).optional(),
      serviceDate: calendarDate().optional(),
      rate: rateSchema.optional(),
      quantity: quantitySchema.optional(),
      uom: integerParam({ min: 1 }).optional(),
    })
    .refine(
      (changes) => Object.values(changes).some((value) => value !== undefined),
      "Choose at least one field to change.",
    ),
});

/** Route (group) and bulk (all customers) batches. */
export const transactionBatchSchema = z.object({
  client: integerParam({ min: 1 }).optional(),
  customers: z
    .array(integerParam({ min: 1 }))
    .max(100_000)
    .optional(),
  route: integerParam({ min: 1 }).optional(),
  code: z
    .union([integerParam({ min: 1 }), z.undefined(), z.null()])
    .refine((value) => value != null, "You must fill in a group code."),
  service_date: calendarDate().optional(),
  amount: nonNegativeAmountSchema,
  quantity: quantitySchema.default("1"),
  /**
   * Per-customer rate and quantity (the by-group screen edits each row); customers not listed take
   * `amount` and `quantity`. Entries only price the batch: `customers` and `route` still choose who.
   */
  customer_amounts: z
    .array(
      z.object({
        customer: integerParam({ min: 1 }),
        amount: nonNegativeAmountSchema,
        quantity: quantitySchema.optional(),
      }),
    )
    .max(100_000)
    .optional(),
  unitofmeasure: integerParam({ min: 1 }).default(1),
  description: z.string().trim().max(60, TRANSACTION_DESCRIPTION_TOO_LONG).optional(),
  transaction_type: z.enum(["route", "bulk"]),
  /** Post even to customers with an equal entry of the last 24 hours (the clerk confirmed it). */
  force: z.boolean().default(false),
});
