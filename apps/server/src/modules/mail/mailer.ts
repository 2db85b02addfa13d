import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "pino";

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A stable id, so a message sent twice (a crash after the server accepted it) reads as one. */
  messageId?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
};
export type Mailer = { send: (message: MailMessage) => Promise<void> };

export const MAIL_FROM = "Cyclebill <no-reply@cyclebill.local>";

/**
 * Sends through SMTP_URL when configured; otherwise writes each message as an .eml file into
 * DATA_DIR/outbox and logs where, so someone running the demo can open the reset link.
 */
export function createMailer(options: {
  smtpUrl: string | null;
  dataDir: string;
  log: Pick<Logger, "info">;
}): Mailer {
  if (options.smtpUrl) {
    // Pooled: a few connections stay open and carry many messages (statement emails go in
    // thousands); an SMTP_URL that says ?pool=false keeps one connection per message.
    const url = new URL(options.smtpUrl);
    if (!url.searchParams.has("pool")) url.searchParams.set("pool", "true");
    const transport = nodemailer.createTransport(url.toString());
    return {
      send: async (message) => {
        await transport.sendMail({ from: MAIL_FROM, ...message });
        options.log.info({ to: message.to, subject: message.subject }, "mail sent");
      },
    };
  }
  const outbox = path.join(options.dataDir, "outbox");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    send: async (message) => {
      const info = await transport.sendMail({ from: MAIL_FROM, ...message });
      mkdirSync(outbox, { recursive: true });
      const file = path.join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(3).toString("hex")}.eml`,
      );
      writeFileSync(file, info.message as Buffer);
      options.log.info(
        { to: message.to, subject: message.subject, file },
        "mail written to the outbox (no SMTP_URL)",
      );
    },
  };
}
