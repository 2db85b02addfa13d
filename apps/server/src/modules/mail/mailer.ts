import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import nodemailer from "nodemailer";
import { parseConnectionUrl } from "nodemailer/lib/shared/index.js";
import type { Logger } from "pino";
import { PROVIDER_SENDER, type MailSender } from "./mail-sender.js";

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A stable id, so a message sent twice (a crash after the server accepted it) reads as one. */
  messageId?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /** Who it is from (mail-sender.ts); the provider when absent. */
  sender?: MailSender;
};
export type Mailer = { send: (message: MailMessage) => Promise<void> };

/** nodemailer's fields for a message: From, Reply-To and the envelope from its sender. */
function mailOptions(message: MailMessage) {
  const { sender = PROVIDER_SENDER, ...rest } = message;
  return {
    ...rest,
    from: sender.from,
    ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
    envelope: { from: sender.envelopeFrom, to: message.to },
  };
}

type SocketOptions = { host?: string; port?: number; secure?: boolean; connectionTimeout?: number };

/**
 * Opens the SMTP connection with Nagle's algorithm off: nodemailer writes a message's commands and
 * data in small pieces, and each small write otherwise waits for the server's delayed ACK (40 ms on
 * Linux), which held a pooled connection to a few messages a second. nodemailer still does the
 * TLS (smtps or STARTTLS) on this socket.
 */
function noDelaySocket(
  options: SocketOptions,
  callback: (error: Error | null, socketOptions?: { connection: net.Socket }) => void,
): void {
  const port = Number(options.port) || (options.secure ? 465 : 587);
  const socket = net.connect({ host: options.host ?? "localhost", port });
  socket.setNoDelay(true);
  socket.setTimeout(options.connectionTimeout ?? 120_000, () =>
    socket.destroy(new Error(`Connection to ${options.host}:${port} timed out`)),
  );
  socket.once("error", (error) => callback(error));
  socket.once("connect", () => {
    socket.setTimeout(0);
    socket.removeAllListeners("error");
    callback(null, { connection: socket });
  });
}

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
    // As many connections as statement emails are handed over at once (send-statement-emails.ts).
    if (!url.searchParams.has("maxConnections")) url.searchParams.set("maxConnections", "10");
    const transport = nodemailer.createTransport({
      ...parseConnectionUrl(url.toString()),
      getSocket: noDelaySocket,
    });
    return {
      send: async (message) => {
        await transport.sendMail(mailOptions(message));
        options.log.info({ to: message.to, subject: message.subject }, "mail sent");
      },
    };
  }
  const outbox = path.join(options.dataDir, "outbox");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    send: async (message) => {
      const info = await transport.sendMail(mailOptions(message));
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
