import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

export type CapturedMail = { to: string; subject: string; text: string };

export type TestSmtp = {
  url: string;
  messages: CapturedMail[];
  /** The newest message to this address, waiting briefly for it to arrive. */
  lastTo: (address: string) => Promise<CapturedMail>;
  close: () => Promise<void>;
};

/** A real SMTP server in-process: the app sends through SMTP_URL and tests read what arrived. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        PostalMime.parse(Buffer.concat(chunks))
          .then((parsed) => {
            messages.push({
              to: (parsed.to ?? []).map((address) => address.address ?? "").join(", "),
              subject: parsed.subject ?? "",
              text: parsed.text ?? "",
            });
            callback();
          })
          .catch((error: unknown) => callback(error as Error));
      });
    },
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
