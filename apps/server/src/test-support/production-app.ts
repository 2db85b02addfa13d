import { eq } from "drizzle-orm";
import { productionRunSchema, type ProductionRun } from "@cyclebill/domain";
import { afterAll, beforeAll, expect } from "vitest";
import { clients } from "../db/tables.js";
import type { ApiClient, TenantFixture, TestApp } from "./test-app.js";
import { startTenantApp } from "./tenant-app.js";
import { pollUntil } from "./poll-until.js";

// What the production and delivery API tests start from: the server with the two-client tenant
// fixture, its admin, and client A billed on the file's cycle. The bindings are filled by
// useProductionApp's beforeAll; each test file has its own module instance, so its own server.

export let testApp: TestApp;
export let fixture: TenantFixture;
export let admin: ApiClient;
/** Client A's id. */
export let clientId: number;

/**
 * Starts the server before the file's tests (before the file's own beforeAll, so call it first)
 * and closes it after them.
 */
export function useProductionApp(options: {
  /** Customers per chunk of a run; without it the server runs no jobs. */
  chunkSize?: number;
  /** Client A's fields: its cycle, last billing date, late-fee rates. */
  client?: Partial<typeof clients.$inferInsert>;
  /** Client B's cycle, when it must stay out of client A's runs. */
  otherCycle?: number;
}): void {
  beforeAll(async () => {
    ({ testApp, fixture } = await startTenantApp(
      options.chunkSize === undefined ? {} : { jobs: { chunkSize: options.chunkSize } },
    ));
    admin = testApp.client(fixture.adminToken);
    clientId = fixture.a.clientId;
    if (options.client) await testApp.db.update(clients).set(options.client).where(eq(clients.id, clientId));
    if (options.otherCycle !== undefined)
      await testApp.db
        .update(clients)
        .set({ normalCycle: options.otherCycle })
        .where(eq(clients.id, fixture.b.clientId));
  });
  afterAll(async () => {
    await testApp?.close();
  });
}

/** Polls a production run until it is done or failed. */
export function waitForProductionRun(
  api: ApiClient,
  id: number,
  timeoutMs = 60_000,
  intervalMs?: number,
): Promise<ProductionRun> {
  return pollUntil(
    async () => productionRunSchema.parse((await api.get(`/api/productionruns/${id}/`)).body),
    (run) => run.status === "done" || run.status === "failed",
    timeoutMs,
    intervalMs,
  );
}

/** Starts a cycle's run as the production page does (POST with `body`), and waits for its end. */
export async function runProductionCycle(
  api: ApiClient,
  cycle: number,
  body: Record<string, unknown>,
  timeoutMs = 60_000,
): Promise<ProductionRun> {
  const started = await api.post(`/api/dailyproduction/cycle/${cycle}/`, body);
  expect(started.status, started.text).toBe(202);
  return waitForProductionRun(api, productionRunSchema.parse(started.body).id, timeoutMs);
}
