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
  // What the sandbox's test controls make (settlements, returns, chargebacks) reaches the app as
  // BluePay's Trans Notify posts do: the address a merchant sets in BluePay's console. The demo's
  // clients share the demo account, so the first one's address serves both (the app applies each
  // confirmed record to the client whose sale it is).
  const notifyUrl = `http://127.0.0.1:${process.env.PORT?.trim() || "8080"}/api/gateway/notify/1001/`;
  await fetch(`${sandbox.url}/sandbox/notify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: notifyUrl }),
  })
    .then((answer) => {
      if (answer.ok) console.log(`The sandbox's Trans Notify posts go to ${notifyUrl}.`);
      else console.log(`The sandbox takes no Trans Notify address (HTTP ${answer.status}).`);
    })
    .catch((error) => console.log(`The sandbox's Trans Notify was not set: ${error.message}`));
}
// The demo's admin signs in with its printed password alone; set ADMIN_SECOND_FACTOR=required (the
// server's own default) to hold admins at second-factor enrolment (docs/security.md).
process.env.ADMIN_SECOND_FACTOR ||= "optional";
await import("../apps/server/dist/main.js");
