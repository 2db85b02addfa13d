import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { ledgerMismatches } from "../modules/ledger/ledger-mismatches.js";
import {
  createTenantFixture,
  startTestApp,
  type TenantFixture,
  type TestApp,
  type TestAppOptions,
} from "./test-app.js";

export type TenantApp = { testApp: TestApp; fixture: TenantFixture };

/**
 * The real server over a fresh database with the two-client tenant fixture: what most API test
 * files start with, in their beforeAll (and close with `testApp.close()` in their afterAll).
 */
export async function startTenantApp(options: TestAppOptions = {}): Promise<TenantApp> {
  const testApp = await startTestApp(options);
  return { testApp, fixture: await createTenantFixture(testApp) };
}

// The server of a test file that needs nothing more: filled by useTenantApp's beforeAll. Each test
// file has its own module instance, so its own server.
export let testApp: TestApp;
export let fixture: TenantFixture;

/**
 * Starts the server with the tenant fixture before the file's tests (before its own beforeAll) and
 * closes it after them; `checkBooks` holds the books to the ledger after every test ("each") or
 * once the file's tests are done ("end").
 */
export function useTenantApp(options: TestAppOptions & { checkBooks?: "each" | "end" } = {}): void {
  const { checkBooks, ...appOptions } = options;
  beforeAll(async () => {
    ({ testApp, fixture } = await startTenantApp(appOptions));
  });
  if (checkBooks === "each") afterEach(expectBalancedBooks);
  afterAll(async () => {
    if (checkBooks === "end") await expectBalancedBooks();
    await testApp?.close();
  });
}

async function expectBalancedBooks(): Promise<void> {
  expect(await ledgerMismatches(testApp.db)).toEqual([]);
}
