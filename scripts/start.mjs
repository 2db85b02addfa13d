#!/usr/bin/env node
// `npm start` after the build: the server, and, when BLUEPAY_URL is unset, the local BluePay sandbox
// in the same process (apps/gateway-sandbox, on BLUEPAY_SANDBOX_PORT, default 4010) with BLUEPAY_URL
// pointed at it, so card payments work on a fresh machine without a gateway account. Its record
// (masks only) is kept in DATA_DIR/gateway-sandbox.json, so cards stored as MASTER_ID survive a restart.
import { mkdirSync } from "node:fs";
import path from "node:path";

if (!process.env.BLUEPAY_URL?.trim()) {
  const { DEMO_ACCOUNT, sandboxOptionsFrom, startSandbox } =
    await import("../apps/gateway-sandbox/dist/index.js");
  const dataDir = path.resolve(process.env.DATA_DIR ?? "data");
  mkdirSync(dataDir, { recursive: true });
  const options = {
    ...sandboxOptionsFrom([], process.env),
    stateFile: path.join(dataDir, "gateway-sandbox.json"),
  };
  const sandbox = await startSandbox(options).catch((error) => {
    const busy = error?.code === "EADDRINUSE";
    console.error(
      busy
        ? `BLUEPAY_SANDBOX_PORT ${options.port} is in use: set BLUEPAY_SANDBOX_PORT to a free port, or BLUEPAY_URL to a gateway.`
        : error,
    );
    process.exit(1);
  });
  process.env.BLUEPAY_URL = sandbox.bp20postUrl;
  console.log(
    `BluePay sandbox (TEST mode, demo account ${DEMO_ACCOUNT.accountId}) at ${sandbox.bp20postUrl}; BLUEPAY_URL points at it.`,
  );
}
await import("../apps/server/dist/main.js");
