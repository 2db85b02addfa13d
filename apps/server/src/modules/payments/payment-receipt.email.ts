import { formatUsd, isNegativeAmount, negateAmount } from "@cyclebill/domain";
import { usDate } from "@cyclebill/domain";
import { clientSender } from "../mail/mail-sender.js";
import type { MailMessage } from "../mail/mailer.js";

/** What one receipt (or declined-autopay or refund notice) says; read from the attempt when it is sent. */
export type ReceiptContent = {
  kind: "receipt" | "declined" | "refund";
  to: string;
  messageId: string;
  clientName: string;
  clientPhone: string;
  clientEmail: string;
  customerName: string;
  customerNo: number;
  amount: string;
  /** "VISA xxxxxxxxxxxx1111", "ACH xxxx6789". */
  method: string;
  /** YYYY-MM-DD, the business date the gateway's answer was recorded. */
  paidOn: string;
  /**
   * YYYY-MM-DD, the date the payment is credited to the account (its ledger entry's date): the
   * first open day when the statements of the paid day were already made (a same-day run).
   */
  creditedOn: string | null;
  gatewayTransId: string;
  /** The statement paid (or the customer's latest), null when there is none yet. */
  statement: { number: number; date: string } | null;
  balanceAfter: string;
  /** The gateway's message (declined notices). */
  message: string;
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function balanceText(balance: string): string {
  return isNegativeAmount(balance) ? `${formatUsd(negateAmount(balance))} credit` : formatUsd(balance);
}

const SUBJECTS: Record<ReceiptContent["kind"], (client: string, amount: string) => string> = {
  receipt: (client, amount) => `${client}: payment receipt for ${amount}`,
  declined: (client, amount) => `${client}: your automatic payment of ${amount} was declined`,
  refund: (client, amount) => `${client}: your payment of ${amount} was refunded`,
};

const HEADINGS: Record<ReceiptContent["kind"], string> = {
  receipt: "Payment receipt",
  declined: "Your automatic payment was declined",
  refund: "Your payment was refunded",
};

/** The opening sentence of each kind. */
function openingOf(input: ReceiptContent, amount: string): string {
  if (input.kind === "declined")
    return `Your automatic payment to ${input.clientName} was declined${input.message ? ` (${input.message})` : ""}. Nothing was charged; please update your payment method or pay your statement another way.`;
  if (input.kind === "refund")
    return `${input.clientName} has refunded ${amount} of your payment to the ${input.method || "card or bank account"} it was paid with. It can take a few business days to show on your statement from your bank.`;
  const credited =
    input.creditedOn && input.creditedOn !== input.paidOn
      ? ` This cycle's statements were already made, so it is credited to your account on ${usDate(input.creditedOn)} and shows on your next statement.`
      : "";
  return `Thank you: ${input.clientName} received your payment.${credited}`;
}

/**
 * The payment receipt: amount, method mask, date, gateway transaction id, statement and balance
 * after, in text and HTML. A declined autopay charge gets a notice instead (nothing was paid); a
 * refund a notice of the money given back, with the refund's transaction id and the balance after
 * it. The stable Message-ID lets a mail client drop a copy sent twice across a crash.
 */
export function paymentReceiptEmail(input: ReceiptContent): MailMessage {
  const declined = input.kind === "declined";
  const refund = input.kind === "refund";
  const amount = formatUsd(input.amount);
  const subject = SUBJECTS[input.kind](input.clientName, amount);
  const rows: [string, string][] = [
    [refund ? "Amount refunded" : "Amount", amount],
    [refund ? "Refunded to" : "Paid with", input.method || "Card or bank account"],
    ["Date", usDate(input.paidOn)],
    ...(input.creditedOn && input.creditedOn !== input.paidOn && input.kind === "receipt"
      ? ([["Credited to your account", usDate(input.creditedOn)]] as [string, string][])
      : []),
    ...(declined
      ? []
      : ([[refund ? "Refund transaction ID" : "Transaction ID", input.gatewayTransId]] as [
          string,
          string,
        ][])),
    ["Account number", String(input.customerNo)],
    ...(input.statement && !refund
      ? ([["Statement", `${input.statement.number} of ${usDate(input.statement.date)}`]] as [
          string,
          string,
        ][])
      : []),
    [
      declined ? "Balance due" : refund ? "Balance after this refund" : "Balance after this payment",
      balanceText(input.balanceAfter),
    ],
  ];
  const contact = `${input.clientName}${input.clientPhone ? ` at ${input.clientPhone}` : ""}${input.clientEmail ? ` or ${input.clientEmail}` : ""}`;
  const opening = openingOf(input, amount);
  const text = [
    `Dear ${input.customerName},`,
    "",
    opening,
    "",
    ...rows.map(([label, value]) => `${label}: ${value}`),
    "",
    `Questions? Contact ${contact}.`,
    "",
  ].join("\n");
  const html = `<!doctype html>
<html><body style="margin:0;padding:24px;background:#f4f5f7;font-family:Helvetica,Arial,sans-serif;color:#1f2933">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td>
<p style="margin:0 0 4px;font-size:13px;color:#616e7c">${escapeHtml(input.clientName)}</p>
<h1 style="margin:0 0 16px;font-size:20px">${HEADINGS[input.kind]}</h1>
<p>Dear ${escapeHtml(input.customerName)},</p>
<p>${escapeHtml(opening)}</p>
<table role="presentation" style="width:100%;border-collapse:collapse;margin:16px 0;font-size:14px">
${rows.map(([label, value]) => `<tr><td style="padding:6px 0;color:#616e7c">${escapeHtml(label)}</td><td style="padding:6px 0;text-align:right">${escapeHtml(value)}</td></tr>`).join("\n")}
</table>
<p style="font-size:13px;color:#616e7c">Questions? Contact ${escapeHtml(contact)}.</p>
</td></tr></table></body></html>`;
  return {
    to: input.to,
    subject,
    text,
    html,
    messageId: input.messageId,
    sender: clientSender({ name: input.clientName, email: input.clientEmail }),
  };
}
