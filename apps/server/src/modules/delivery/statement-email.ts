import {
  autopayNotice,
  dueDateLabel,
  formatUsd,
  isNegativeAmount,
  isZeroAmount,
  negateAmount,
  printedAmountDue,
  statementDueDate,
  statementFileName,
} from "@cyclebill/domain";
import { usDate } from "@cyclebill/domain";
import { clientSender } from "../mail/mail-sender.js";
import type { MailMessage } from "../mail/mailer.js";
import type { StatementDocument } from "../statements/statement-page.pdf.js";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The email that carries one statement: amount due, due date and pay link in the text and HTML
 * bodies, the statement's PDF attached. A stable Message-ID per statement lets a mail client drop
 * the copy if a crash between the server's "accepted" and our record of it sends it twice.
 */
export function statementEmail(input: {
  to: string;
  document: StatementDocument;
  pdf: Buffer;
  /** null: the client takes no card payments (takesCardPayments), so the email offers no link. */
  payLink: string | null;
  messageId: string;
}): MailMessage {
  const { client, statement } = input.document;
  const credit = isNegativeAmount(statement.newBalance);
  const due = formatUsd(printedAmountDue(statement.newBalance));
  const creditBalance = formatUsd(negateAmount(statement.newBalance));
  // The one due-date rule, as the PDF prints it.
  const dueLabel = dueDateLabel(statement.statementDate, client.dueDays);
  const dueDate = usDate(statementDueDate(statement.statementDate, client.dueDays));
  const autopay =
    input.document.autopay && !credit && !isZeroAmount(statement.newBalance)
      ? input.document.autopay
      : undefined;
  if (autopay) return autopayEmail(input, autopay);
  const payLink = credit ? null : input.payLink;
  return statementMessage(input, {
    subject: `Your ${client.name} statement: ${due} due ${dueDate}`,
    summary: credit
      ? `Your account has a credit balance of ${creditBalance}; nothing is due.`
      : `Amount due: ${due}, ${dueLabel}.`,
    payLines: payLink ? [`Pay online: ${payLink}`, ""] : [],
    htmlBeforeTable: "",
    htmlAmountRows: `<tr><td style="padding:6px 0;color:#616e7c">${credit ? "Credit balance" : "Amount due"}</td><td style="padding:6px 0;text-align:right;font-weight:bold;font-size:18px">${escapeHtml(credit ? creditBalance : due)}</td></tr>
${credit ? "" : `<tr><td style="padding:6px 0;color:#616e7c">Due</td><td style="padding:6px 0;text-align:right">${escapeHtml(dueLabel)}</td></tr>`}
`,
    htmlAfterTable: `${payLink === null ? "" : `<p style="text-align:center;margin:24px 0"><a href="${escapeHtml(payLink)}" style="background:#1c7ed6;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:6px;font-weight:bold">Pay your statement</a></p>`}
`,
  });
}

type StatementEmailInput = Parameters<typeof statementEmail>[0];

/** An autopay customer's email: what will be charged to which method on which day; no Pay button. */
function autopayEmail(
  input: StatementEmailInput,
  autopay: { method: string; chargeDate: string },
): MailMessage {
  const { client, statement } = input.document;
  const notice = autopayNotice({
    amount: statement.newBalance,
    method: autopay.method,
    chargeDate: autopay.chargeDate,
  });
  return statementMessage(input, {
    subject: `Your ${client.name} statement: ${formatUsd(statement.newBalance)} by autopay on ${usDate(autopay.chargeDate)}`,
    summary: notice,
    payLines: [],
    htmlBeforeTable: `<p style="font-size:15px;font-weight:bold">${escapeHtml(notice)}</p>
`,
    htmlAmountRows: "",
    htmlAfterTable: "",
  });
}

/** What the two kinds of statement email differ in; each html part ends with its own line break. */
type StatementMessageParts = {
  subject: string;
  summary: string;
  payLines: string[];
  htmlBeforeTable: string;
  htmlAmountRows: string;
  htmlAfterTable: string;
};

/** The frame both statement emails share: greeting, account rows, contact line and the PDF. */
function statementMessage(input: StatementEmailInput, parts: StatementMessageParts): MailMessage {
  const { client, customer, statement } = input.document;
  const lines = [
    `Dear ${customer.name},`,
    "",
    `Your statement from ${client.name} dated ${usDate(statement.statementDate)} is attached.`,
    "",
    parts.summary,
    `Account number: ${customer.customerNo} · Statement number: ${statement.statementNum}`,
    "",
    ...parts.payLines,
    `Questions? Contact ${client.name}${client.phone ? ` at ${client.phone}` : ""}${client.email ? ` or ${client.email}` : ""}.`,
  ];
  const html = `<!doctype html>
<html><body style="margin:0;padding:24px;background:#f4f5f7;font-family:Helvetica,Arial,sans-serif;color:#1f2933">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td>
<p style="margin:0 0 4px;font-size:13px;color:#616e7c">${escapeHtml(client.name)}</p>
<h1 style="margin:0 0 16px;font-size:20px">Your statement is ready</h1>
<p>Dear ${escapeHtml(customer.name)},</p>
<p>Your statement dated ${usDate(statement.statementDate)} is attached as a PDF.</p>
${parts.htmlBeforeTable}<table role="presentation" style="width:100%;border-collapse:collapse;margin:16px 0;font-size:14px">
${parts.htmlAmountRows}<tr><td style="padding:6px 0;color:#616e7c">Account number</td><td style="padding:6px 0;text-align:right">${customer.customerNo}</td></tr>
<tr><td style="padding:6px 0;color:#616e7c">Statement number</td><td style="padding:6px 0;text-align:right">${statement.statementNum}</td></tr>
</table>
${parts.htmlAfterTable}<p style="font-size:13px;color:#616e7c">Questions? Contact ${escapeHtml(client.name)}${client.phone ? ` at ${escapeHtml(client.phone)}` : ""}${client.email ? ` or ${escapeHtml(client.email)}` : ""}.</p>
</td></tr></table></body></html>`;
  return {
    to: input.to,
    subject: parts.subject,
    text: lines.join("\n") + "\n",
    html,
    messageId: input.messageId,
    sender: clientSender({ name: client.name, email: client.email }),
    attachments: [
      {
        filename: statementFileName(statement.statementNum),
        content: input.pdf,
        contentType: "application/pdf",
      },
    ],
  };
}
