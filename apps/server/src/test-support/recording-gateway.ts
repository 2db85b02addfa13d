import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { currentClock } from "../clock.js";
import { clients } from "../db/tables.js";
import { redactFields } from "../modules/payments/bluepay-client.js";
import { GATEWAY_ACCOUNT_A, GATEWAY_ACCOUNT_B, type PaymentFixture } from "./payment-fixture.js";
import { gatewayAccountFields } from "./stored-cards.js";
import { createTenantFixture, startTestApp, type TestAppOptions } from "./test-app.js";

// A recording stand-in in front of the gateway sandbox: every bp20post/stq request is forwarded
// as it came and its fields are kept (account masked, CVV and seal dropped), so a test can assert
// what the app SENT (PAYMENT_TYPE, DOC_TYPE, MASTER_ID...), which the sandbox's record does not
// show. It can also play BluePay's three-year retention: a MASTER_ID whose transaction is older
// than `retentionMs` (by the sandbox's record and the given clock) is refused without forwarding.

export type RecordedCall = { path: string; fields: Record<string, string> };

export type RecordingGateway = {
  /** What BLUEPAY_URL points at. */
  bp20postUrl: string;
  calls: RecordedCall[];
  /** bp20post calls only, oldest first. */
  posts: () => Record<string, string>[];
  /** Refuse MASTER_IDs older than this (null: forward everything). */
  setRetention: (retention: { ms: number; now: () => Date } | null) => void;
  close: () => Promise<void>;
};

export const RETENTION_MESSAGE = "Invalid MASTER_ID";

export async function startRecordingGateway(sandbox: Sandbox): Promise<RecordingGateway> {
  const calls: RecordedCall[] = [];
  let retention: { ms: number; now: () => Date } | null = null;
  const expired = (masterId: string): boolean => {
    if (!retention || masterId === "") return false;
    const master = sandbox.transactions().find((t) => t.transId === masterId);
    return master !== undefined && retention.now().getTime() - Date.parse(master.issuedAt) > retention.ms;
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = new URL(request.url ?? "/", "http://stand-in").pathname;
      const fields = Object.fromEntries(new URLSearchParams(body));
      calls.push({ path, fields: redactFields(fields) });
      if (path.endsWith("/bp20post") && expired(fields.MASTER_ID ?? "")) {
        const answer = new URLSearchParams({ TRANS_ID: "", STATUS: "E", MESSAGE: RETENTION_MESSAGE });
        response.writeHead(400, { "content-type": "text/plain" }).end(answer.toString());
        return;
      }
      fetch(sandbox.url + path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      })
        .then(async (answer) => {
          response.writeHead(answer.status, { "content-type": "text/plain" }).end(await answer.text());
        })
        .catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    bp20postUrl: `http://127.0.0.1:${port}/interfaces/bp20post`,
    calls,
    posts: () => calls.filter((call) => call.path.endsWith("/bp20post")).map((call) => call.fields),
    setRetention: (next) => {
      retention = next;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** A payment fixture whose app talks to the sandbox through a recording stand-in. */
export type RecordingPaymentFixture = PaymentFixture & { recorder: RecordingGateway };

/**
 * As usePaymentFixture, but BLUEPAY_URL is the recording stand-in; the sandbox keeps the app's
 * clock (currentClock), so a test that moves the clock moves both.
 */
export function useRecordingPaymentFixture(options: TestAppOptions = {}): RecordingPaymentFixture {
  const fixture = {} as RecordingPaymentFixture;
  beforeAll(async () => {
    const sandbox = await startSandbox({
      accounts: [GATEWAY_ACCOUNT_A, GATEWAY_ACCOUNT_B],
      demoAccount: false,
      now: () => currentClock().now(),
    });
    const recorder = await startRecordingGateway(sandbox);
    const testApp = await startTestApp({
      ...options,
      bluepay: { url: recorder.bp20postUrl, mode: "TEST", timeoutMs: 5_000 },
    });
    const tenants = await createTenantFixture(testApp);
    for (const [tenant, account] of [
      [tenants.a, GATEWAY_ACCOUNT_A],
      [tenants.b, GATEWAY_ACCOUNT_B],
    ] as const)
      await testApp.db
        .update(clients)
        .set(gatewayAccountFields(testApp.config.secretsKey, account))
        .where(eq(clients.id, tenant.clientId));
    Object.assign(fixture, {
      sandbox,
      recorder,
      testApp,
      tenants,
      close: async () => {
        await testApp.close();
        await recorder.close();
        await sandbox.close();
      },
    });
  });
  afterAll(async () => {
    await fixture.close?.();
  });
  return fixture;
}
