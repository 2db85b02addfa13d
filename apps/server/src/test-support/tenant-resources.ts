import type { ApiClient } from "./test-app.js";

/**
 * Every tenant-owned resource served with the shared conventions. The isolation and fuzz tests
 * run against each entry: adding a resource here is the one line that puts it under test.
 * `validBody(n)` returns a body that creates a new record (n makes unique values).
 */
export type TenantResourceCase = {
  path: string;
  /** Resources only owners and admins may use (staff get 403); default: all of the client's users. */
  ownersOnly?: boolean;
  validBody: (n: number, api: ApiClient) => Promise<Record<string, unknown>> | Record<string, unknown>;
};

export const tenantResourceCases: TenantResourceCase[] = [
  {
    path: "/api/codes/",
    validBody: (n) => ({ code: 5000 + n, description: `Code ${n}`, code_type: "charge", taxable: false }),
  },
  { path: "/api/routes/", validBody: (n) => ({ route_name: `Group ${n}` }) },
  {
    path: "/api/users/",
    ownersOnly: true,
    validBody: (n) => ({
      firstName: "Test",
      lastName: `User ${n}`,
      email: `isolation-${n}@example.com`,
      isStaff: true,
    }),
  },
];
