import { formatUsd, isNegativeAmount, negateAmount } from "@cyclebill/domain";
import { usDate } from "@cyclebill/domain";
import type { MailMessage } from "../mail/mailer.js";

/** What one receipt (or declined-autopay notice) says; read from the attempt when it is sent. */
export type ReceiptContent = {
  kind: "receipt" | "declined";
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

/**
 * The payment receipt: amount, method mask, date, gateway transaction id, statement and balance
 * after, in text and HTML. A declined autopay charge gets a notice instead (nothing was paid). The
 * stable Message-ID lets a mail client drop a copy sent twice across a crash.
 */
export function paymentReceiptEmail(input: ReceiptContent): MailMessage {
  const declined = input.kind === "declined";
  const amount = formatUsd(input.amount);
  const subject = declined
    ? `${input.clientName}: your automatic payment of ${amount} was declined`
    : `${input.clientName}: payment receipt for ${amount}`;
  const rows: [string, string][] = [
    ["Amount", amount],
    ["Paid with", input.method || "Card or bank account"],
    ["Date", usDate(input.paidOn)],
    ...(input.creditedOn && input.creditedOn !== input.paidOn && !declined
      ? ([["Credited to your account", usDate(input.creditedOn)]] as [string, string][])
      : []),
    ...(declined ? [] : ([["Transaction ID", input.gatewayTransId]] as [string, string][])),
    ["Account number", String(input.customerNo)],
    ...(input.statement
      ? ([["Statement", `${input.statement.number} of ${usDate(input.statement.date)}`]] as [
          string,
          string,
        ][])
      : []),
    [declined ? "Balance due" : "Balance after this payment", balanceText(input.balanceAfter)],
  ];
  const contact = `${input.clientName}${input.clientPhone ? ` at ${input.clientPhone}` : ""}${input.clientEmail ? ` or ${input.clientEmail}` : ""}`;
  const opening = declined
    ? `Your automatic payment to ${input.clientName} was declined${input.message ? ` (${input.message})` : ""}. Nothing was charged; please update your payment method or pay your statement another way.`
    : `Thank you: ${input.clientName} received your payment.${
        input.creditedOn && input.creditedOn !== input.paidOn
          ? ` This cycle's statements were already made, so it is credited to your account on ${usDate(input.creditedOn)} and shows on your next statement.`
          : ""
      }`;
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
<h1 style="margin:0 0 16px;font-size:20px">${declined ? "Your automatic payment was declined" : "Payment receipt"}</h1>
<p>Dear ${escapeHtml(input.customerName)},</p>
<p>${escapeHtml(opening)}</p>
<table role="presentation" style="width:100%;border-collapse:collapse;margin:16px 0;font-size:14px">
${rows.map(([label, value]) => `<tr><td style="padding:6px 0;color:#616e7c">${escapeHtml(label)}</td><td style="padding:6px 0;text-align:right">${escapeHtml(value)}</td></tr>`).join("\n")}
</table>
<p style="font-size:13px;color:#616e7c">Questions? Contact ${escapeHtml(contact)}.</p>
</td></tr></table></body></html>`;
  return { to: input.to, subject, text, html, messageId: input.messageId };
}
