#!/usr/bin/env node
import { startSandbox } from "./bluepay-sandbox.js";
import { DEMO_ACCOUNT } from "./sandbox-accounts.js";
import { sandboxOptionsFrom } from "./sandbox-options.js";

// `npm run gateway:sandbox -- --port 4010 --accounts id:secret`: the sandbox on its own.
async function main(): Promise<void> {
  const sandbox = await startSandbox(sandboxOptionsFrom(process.argv.slice(2)));
  process.stdout.write(
    `BluePay sandbox (TEST mode) at ${sandbox.bp20postUrl}; demo account ${DEMO_ACCOUNT.accountId}; ` +
      `record at ${sandbox.url}/sandbox/transactions\n`,
  );
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
