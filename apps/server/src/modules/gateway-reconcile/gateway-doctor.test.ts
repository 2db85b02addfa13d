import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/database.js";
import { clients } from "../../db/tables.js";
import { startReportStandIn, type ReportStandIn } from "../../test-support/daily-report-stand-in.js";
import { AUSTIN_ADDRESS } from "../../test-support/mailing-address.js";
import { GATEWAY_ACCOUNT_A } from "../../test-support/payment-fixture.js";
import { gatewayAccountFields } from "../../test-support/stored-cards.js";

// `npm run cli -- doctor --gateway` as an operator runs it: a CLI process on its own database,
// BluePay's report served by the stand-in; exit 0 on a clean day, 1 on any difference.

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, "../../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "cyclebill-gateway-doctor-"));
const SECRETS_KEY = "gateway-doctor-secrets-key";
const DAY = "2030-06-14";
let sandbox: Sandbox;
let standIn: ReportStandIn;

async function doctor(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      "node",
      ["--conditions=source", "--import", "tsx", "src/cli.ts", "doctor", "--gateway", ...args],
      {
        cwd: serverDir,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: "",
          JWT_SECRET: "cli-test",
          BILLING_SECRETS_KEY: SECRETS_KEY,
          BLUEPAY_URL: standIn.bp20postUrl,
          BLUEPAY_MODE: "TEST",
        },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

// The CLI process runs on its own PGlite whatever TEST_DB says; on PostgreSQL runs the comparison
// itself is covered by gateway-reconcile.test.ts, so this file's 20 s are spent once.
describe.skipIf(process.env.TEST_DB === "postgres")("doctor --gateway", () => {
  beforeAll(async () => {
    sandbox = await startSandbox({ accounts: [GATEWAY_ACCOUNT_A], demoAccount: false });
    standIn = await startReportStandIn(sandbox.url, [GATEWAY_ACCOUNT_A]);
    const database = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    await database.migrate();
    await database.db.insert(clients).values([
      {
        clientNo: 4101,
        clientName: "Keyed Client",
        ...AUSTIN_ADDRESS,
        ...gatewayAccountFields(SECRETS_KEY, GATEWAY_ACCOUNT_A),
      },
      { clientNo: 4102, clientName: "Keyless Client", ...AUSTIN_ADDRESS },
    ]);
    await database.close();
  }, 60_000);

  afterAll(async () => {
    await standIn?.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    "exits 0 on a clean day and 1 on a difference, naming it; refuses bad arguments",
    // Four CLI processes, each starting tsx: 116 s at a load of 12 on two cores.
    { timeout: 240_000 },
    async () => {
      expect(await doctor("--date", DAY)).toMatchObject({
        code: 0,
        stdout: expect.stringContaining(
          `client 4101, ${DAY}: BluePay settled 0 for 0.00; the ledger holds 0 for 0.00; no differences.`,
        ),
      });
      standIn.setRows(GATEWAY_ACCOUNT_A.accountId, [
        {
          id: "100000000777",
          payment_type: "ACH",
          trans_type: "SALE",
          amount: "30.00",
          status: "1",
          origin: "bp20post",
          issue_date: `${DAY} 10:00:00`,
          settle_date: `${DAY} 22:00:00`,
        },
      ]);
      const found = await doctor("--client", "4101", "--date", DAY);
      expect(found.code).toBe(1);
      expect(found.stderr).toContain(
        `client 4101, ${DAY}: BluePay settled 1 for 30.00; the ledger holds 0 for 0.00; 1 differences:`,
      );
      expect(found.stderr).toContain("At the gateway, not in the ledger: trans 100000000777");
      expect(await doctor("--client", "4102", "--date", DAY)).toMatchObject({
        code: 1,
        stderr: expect.stringContaining("Client 4102 has no payment gateway key."),
      });
      expect(await doctor("--date", "2030-02-30")).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('--date takes a day as YYYY-MM-DD, got "2030-02-30".'),
      });
    },
  );
});
