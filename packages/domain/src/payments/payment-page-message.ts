import type { GatewayStatus } from "./gateway-answer.js";

// The payment page decides success from the text alone (spec, section 4): approved when the message
// contains 'approved' or 'auth/tkt'. The server decides from the gateway's STATUS. The message the
// server hands the page is built here so the two can never disagree: an approval whose processor
// text lacks the words gets them, and a refusal whose text happens to contain them ("NOT APPROVED")
// is replaced by a plain one.

const PAGE_APPROVAL_WORDS = ["approved", "auth/tkt"] as const;

/** The page's rule, case-insensitive (BluePay writes "Approved Sale", some processors "AUTH/TKT 0123"). */
export function pageSaysApproved(message: string): boolean {
  const text = message.toLowerCase();
  return PAGE_APPROVAL_WORDS.some((word) => text.includes(word));
}

const REFUSAL_TEXT: Record<Exclude<GatewayStatus, "approved">, string> = {
  declined: "Declined",
  error: "The payment could not be processed",
  duplicate: "DUPLICATE: this payment was already made",
};

/** The message_response for the page: the gateway's own text whenever it already agrees with STATUS. */
export function paymentPageMessage(answer: { status: GatewayStatus; message: string }): string {
  const message = answer.message.trim();
  if (answer.status === "approved") {
    if (pageSaysApproved(message)) return message;
    return message === "" ? "Approved" : `Approved: ${message}`;
  }
  if (message !== "" && !pageSaysApproved(message)) return message;
  return REFUSAL_TEXT[answer.status];
}
