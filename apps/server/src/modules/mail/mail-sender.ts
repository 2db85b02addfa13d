/**
 * Who an email is from. The provider's address stays the From address and the envelope sender
 * (MAIL FROM): the provider's domain is the one SPF and DKIM vouch for, so mail "from" a client's
 * own domain would fail DMARC. The client shows as the sender's name and answers come to it
 * through Reply-To.
 */
export type MailSender = {
  from: { name: string; address: string };
  /** Where the recipient's answer goes; absent when the client has no usable email address. */
  replyTo?: string;
  /** The SMTP envelope's MAIL FROM (bounces come here). */
  envelopeFrom: string;
};

export const PROVIDER_MAIL_NAME = "Cyclebill";
export const PROVIDER_MAIL_ADDRESS = "no-reply@cyclebill.local";

/** The provider's own mail (sign-in, password reset, account emails). */
export const PROVIDER_SENDER: MailSender = {
  from: { name: PROVIDER_MAIL_NAME, address: PROVIDER_MAIL_ADDRESS },
  envelopeFrom: PROVIDER_MAIL_ADDRESS,
};

const EMAIL_PATTERN = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;

/**
 * The one sender of every email a client's customer receives (statements, receipts, refund,
 * decline, return and expiring-card notices): the client's name, the client's Reply-To, the
 * provider's envelope. A client without a name sends as the provider.
 */
export function clientSender(client: { name: string; email: string }): MailSender {
  // Header safety: a stored name is one line.
  const name = client.name.replace(/[\r\n]+/g, " ").trim();
  const email = client.email.trim();
  return {
    from: { name: name || PROVIDER_MAIL_NAME, address: PROVIDER_MAIL_ADDRESS },
    ...(EMAIL_PATTERN.test(email) ? { replyTo: email } : {}),
    envelopeFrom: PROVIDER_MAIL_ADDRESS,
  };
}
