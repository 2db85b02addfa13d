import { usDate } from "@cyclebill/domain";
import { clientSender } from "../mail/mail-sender.js";
import type { MailMessage } from "../mail/mailer.js";

/** What the one notice about an expiring card on file says. */
export type ExpiringCardContent = {
  to: string;
  messageId: string;
  clientName: string;
  clientPhone: string;
  clientEmail: string;
  customerName: string;
  customerNo: number;
  /** "VISA ending 1111". */
  card: string;
  /** MMYY. */
  expiry: string;
  /** YYYY-MM-DD: the charge the card will not be good for. */
  nextChargeOn: string;
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The card on file expires before the next charge: ask for a new one, in text and HTML. */
export function expiringCardEmail(input: ExpiringCardContent): MailMessage {
  const expires = `${input.expiry.slice(0, 2)}/${input.expiry.slice(2)}`;
  const subject = `${input.clientName}: your card on file expires before your next payment`;
  const contact = `${input.clientName}${input.clientPhone ? ` at ${input.clientPhone}` : ""}${input.clientEmail ? ` or ${input.clientEmail}` : ""}`;
  const body = `Your ${input.card} on file with ${input.clientName} expires ${expires}, before your next payment on ${usDate(input.nextChargeOn)} (account ${input.customerNo}). Please give ${input.clientName} a new card so that payment goes through.`;
  const text = [`Dear ${input.customerName},`, "", body, "", `Contact ${contact}.`, ""].join("\n");
  const html = `<!doctype html>
<html><body style="margin:0;padding:24px;background:#f4f5f7;font-family:Helvetica,Arial,sans-serif;color:#1f2933">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td>
<p style="margin:0 0 4px;font-size:13px;color:#616e7c">${escapeHtml(input.clientName)}</p>
<h1 style="margin:0 0 16px;font-size:20px">Your card on file is expiring</h1>
<p>Dear ${escapeHtml(input.customerName)},</p>
<p>${escapeHtml(body)}</p>
<p style="font-size:13px;color:#616e7c">Contact ${escapeHtml(contact)}.</p>
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
