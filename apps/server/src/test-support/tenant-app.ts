import { afterAll, beforeAll } from "vitest";
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

/** Starts the server with the tenant fixture before the file's tests (before its own beforeAll); closes it after. */
export function useTenantApp(options: TestAppOptions = {}): void {
  beforeAll(async () => {
    ({ testApp, fixture } = await startTenantApp(options));
  });
  afterAll(async () => {
    await testApp?.close();
  });
}
