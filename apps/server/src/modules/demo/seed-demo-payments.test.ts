import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { DatabaseHandle } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { openTestDatabase } from "../../test-support/test-database.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { loadBluepayCredentials } from "../payments/bluepay-credentials.js";
import { seedDemo } from "./seed-demo.js";
import { DEMO_GATEWAY_ACCOUNT, seedDemoPayments } from "./seed-demo-payments.js";

// The demo's payments against the sandbox's demo account, as npm start runs them.

const SECRETS_KEY = "demo-payments-test-key";
let database: DatabaseHandle;
let sandbox: Sandbox;

beforeAll(async () => {
  database = await openTestDatabase();
  sandbox = await startSandbox();
  await seedDemo(database.db, {
    createAdmin: true,
    now: new Date("2026-11-21T12:00:00Z"),
    customersPerClient: 24,
    secretsKey: SECRETS_KEY,
  });
});

afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

describe("demo payments", () => {
  it("points the demo clients at the sandbox's demo account, stores cards with autopay, and posts a few payments", async () => {
    const [client] = await queryRows(
      database.db,
      sql`select id from clients order by id limit 1`,
      z.object({ id: dbInt }),
    );
    expect(await loadBluepayCredentials(database.db, SECRETS_KEY, Number(client?.id))).toEqual(
      DEMO_GATEWAY_ACCOUNT,
    );

    const gateway = {
      url: sandbox.bp20postUrl,
      mode: "TEST" as const,
      timeoutMs: 5_000,
      secretsKey: SECRETS_KEY,
      installationId: "seeddemo",
    };
    const summary = await seedDemoPayments(database.db, gateway);
    expect(summary.storedCards).toBeGreaterThanOrEqual(4);
    expect(summary.payments).toBeGreaterThanOrEqual(6);
    // Per client: a card declined on the pay page and an autopay charge declined.
    expect(summary.declined).toBe(4);

    const autopay = await queryRows(
      database.db,
      sql`select count(m.customer_id) as with_method, count(*) filter (where c.autopay_flag) as autopay
          from customers c left join customer_payment_methods m on m.client_id = c.client_id and m.customer_id = c.id
          where c.autopay_flag or m.customer_id is not null`,
      z.object({ with_method: dbInt, autopay: dbInt }),
    );
    expect(autopay[0]?.with_method).toBe(summary.storedCards);
    expect(autopay[0]?.autopay).toBe(summary.storedCards);
    const entries = await queryRows(
      database.db,
      sql`select count(*) as count from transactions where gateway_trans_id is not null`,
      z.object({ count: dbInt }),
    );
    expect(entries[0]?.count).toBe(summary.payments);
    expect(await ledgerMismatches(database.db)).toEqual([]);
    // The demo's legacy client seals with MD5, the others with HMAC_SHA512; the sandbox took both.
    const approvedBy = (hashType: string) =>
      sandbox.transactions().filter((t) => t.hashType === hashType && t.status === "1").length;
    expect(approvedBy("HMAC_SHA512")).toBeGreaterThan(0);
    expect(approvedBy("MD5")).toBeGreaterThan(0);
  });
});
