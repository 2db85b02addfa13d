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
