#!/usr/bin/env node
// `npm start` after the build: the server, and, when BLUEPAY_URL is unset, the local BluePay sandbox
// in the same process (apps/gateway-sandbox, on BLUEPAY_SANDBOX_PORT, default 4010, or a free port
// when 4010 is taken and the variable unset) with BLUEPAY_URL pointed at it, so card payments work
// on a fresh machine without a gateway account. Its record (masks only) is kept in
// DATA_DIR/gateway-sandbox.json, so cards stored as MASTER_ID survive a restart.
import { mkdirSync } from "node:fs";
import path from "node:path";

if (!process.env.BLUEPAY_URL?.trim()) {
  const { DEMO_ACCOUNT, sandboxOptionsFrom, startAppSandbox } =
    await import("../apps/gateway-sandbox/dist/index.js");
  const dataDir = path.resolve(process.env.DATA_DIR ?? "data");
  mkdirSync(dataDir, { recursive: true });
  const options = {
    ...sandboxOptionsFrom([], process.env),
    stateFile: path.join(dataDir, "gateway-sandbox.json"),
  };
  const { sandbox, notice } = await startAppSandbox(
    options,
    Boolean(process.env.BLUEPAY_SANDBOX_PORT?.trim()),
  ).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
  if (notice) console.log(notice);
  process.env.BLUEPAY_URL = sandbox.bp20postUrl;
  console.log(
    `BluePay sandbox (TEST mode, demo account ${DEMO_ACCOUNT.accountId}) at ${sandbox.bp20postUrl}; BLUEPAY_URL points at it.`,
  );
}
await import("../apps/server/dist/main.js");
