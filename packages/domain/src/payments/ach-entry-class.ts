// NACHA standard entry classes for ACH debits, as BluePay's DOC_TYPE takes them: which one a debit
// goes out with depends on how the payer authorized it (Nacha Operating Rules; our reading is in
// docs/payments.md).

export const ACH_ENTRY_CLASSES = ["WEB", "TEL", "PPD", "CCD"] as const;
export type AchEntryClass = (typeof ACH_ENTRY_CLASSES)[number];

/** Where the debit is asked for: the public page, staff keying it, or a card run / autopay. */
export type AchDebitSource = "page" | "staff" | "bulk" | "autopay";

/**
 * The class of one ACH debit: CCD for a business's account (the customer has a company name); WEB
 * when the payer authorizes it on the public page; PPD only with a signed written agreement on
 * file; TEL when staff key it from a phone call; a card run or autopay debit of a stored account
 * goes under the class its standing authorization was given in (WEB from the page, else TEL).
 */
export function achEntryClass(input: {
  source: AchDebitSource;
  company: string;
  signedAgreement: boolean;
  /** The stored account's class when it was stored ("" for an account keyed in now). */
  storedClass?: string;
}): AchEntryClass {
  if (input.company.trim() !== "") return "CCD";
  if (input.source === "page") return "WEB";
  if (input.signedAgreement) return "PPD";
  if (input.source === "staff") return "TEL";
  return input.storedClass === "WEB" || input.storedClass === "PPD" ? input.storedClass : "TEL";
}

/**
 * The class of an ACH refund (a credit to the payer's account): TEL and WEB carry consumer debits
 * only, so a consumer's refund goes PPD; a business's stays CCD.
 */
export function achRefundClass(debitClass: string): "PPD" | "CCD" {
  return debitClass === "CCD" ? "CCD" : "PPD";
}

/** BluePay refuses a $0.00 ACH AUTH; a bank account is stored with its first payment instead. */
export const ACH_STORE_NEEDS_PAYMENT_MESSAGE =
  "A bank account is stored with its first payment: enter an amount and tick “Save for future payments”.";
