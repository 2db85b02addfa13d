// A local SMTP server that takes every message and keeps nothing, in its own process (so the bench
// process's CPU goes to sending, not receiving). Prints "listening <port>", then counts on SIGTERM.
import { SMTPServer } from "smtp-server";

let received = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  size: 10 * 1024 * 1024,
  onData(stream, _session, callback) {
    stream.on("data", () => undefined);
    stream.on("end", () => {
      received += 1;
      callback();
    });
  },
});
server.listen(0, "127.0.0.1", () => {
  const address = server.server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => {
  console.log(`received ${received}`);
  server.close(() => process.exit(0));
});
