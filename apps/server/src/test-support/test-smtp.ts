import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

export type CapturedMail = {
  to: string;
  /** The From header's display name and address. */
  from: { name: string; address: string };
  /** The Reply-To header's addresses, comma-separated ("" when none). */
  replyTo: string;
  /** The SMTP envelope's MAIL FROM. */
  envelopeFrom: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  attachments: { filename: string; mimeType: string; content: Buffer }[];
};

export type TestSmtp = {
  url: string;
  messages: CapturedMail[];
  /** The newest message to this address, waiting briefly for it to arrive. */
  lastTo: (address: string) => Promise<CapturedMail>;
  /**
   * The server never answers the next message to this address (its DATA hangs: the sender waits
   * and the message is not taken), as a mail server that stalls while a worker is killed.
   */
  stall: (address: string) => void;
  /** How many messages to this address are stalled now. */
  stalled: (address: string) => number;
  /**
   * While on, the server takes every message (it is in `messages`) but never answers: the sender
   * cannot know it was taken, as when a worker is killed between the server's acceptance and its record.
   */
  takeWithoutAnswer: (on: boolean) => void;
  /** The server refuses mail to this address the next `times` tries (550), then takes it. */
  refuse: (address: string, times: number) => void;
  close: () => Promise<void>;
};

/** A real SMTP server in-process: the app sends through SMTP_URL and tests read what arrived. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: CapturedMail[] = [];
  const refusals = new Map<string, number>();
  const stalls = new Set<string>();
  const stalledNow = new Map<string, number>();
  let silent = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const key = address.address.toLowerCase();
      const left = refusals.get(key) ?? 0;
      if (left > 0) {
        refusals.set(key, left - 1);
        callback(Object.assign(new Error("Mailbox unavailable (test refusal)"), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const recipients = session.envelope.rcptTo.map((address) => address.address.toLowerCase());
      const stalled = recipients.find((address) => stalls.has(address));
      if (stalled) {
        stalls.delete(stalled);
        stalledNow.set(stalled, (stalledNow.get(stalled) ?? 0) + 1);
        stream.resume();
        return; // never answered, never taken
      }
      const answer = silent ? (_error?: Error) => undefined : callback;
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        PostalMime.parse(Buffer.concat(chunks))
          .then((parsed) => {
            messages.push({
              to: (parsed.to ?? []).map((address) => address.address ?? "").join(", "),
              from: { name: parsed.from?.name ?? "", address: parsed.from?.address ?? "" },
              replyTo: (parsed.replyTo ?? []).map((address) => address.address ?? "").join(", "),
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              subject: parsed.subject ?? "",
              text: parsed.text ?? "",
              html: parsed.html ?? "",
              messageId: parsed.messageId ?? "",
              attachments: parsed.attachments.map((attachment) => ({
                filename: attachment.filename ?? "",
                mimeType: attachment.mimeType,
                content: Buffer.from(
                  typeof attachment.content === "string"
                    ? attachment.content
                    : new Uint8Array(attachment.content),
                ),
              })),
            });
            answer();
          })
          .catch((error: unknown) => answer(error as Error));
      });
    },
  });
  // A client killed with kill -9 (the kill tests) resets its pooled connections: not the test's error.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET" && error.code !== "EPIPE") throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  if (!address || typeof address === "string") throw new Error("SMTP server did not bind");
  return {
    url: `smtp://127.0.0.1:${address.port}/?ignoreTLS=true`,
    messages,
    lastTo: async (recipient) => {
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const found = messages
          .filter((message) => message.to.toLowerCase() === recipient.toLowerCase())
          .at(-1);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(
        `no mail arrived for ${recipient}; got: ${messages.map((message) => message.to).join(", ")}`,
      );
    },
    takeWithoutAnswer: (on) => {
      silent = on;
    },
    refuse: (address, times) => refusals.set(address.toLowerCase(), times),
    stall: (address) => stalls.add(address.toLowerCase()),
    stalled: (address) => stalledNow.get(address.toLowerCase()) ?? 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
