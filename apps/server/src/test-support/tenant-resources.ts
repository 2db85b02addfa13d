import type { ApiClient } from "./test-app.js";

/**
 * Every tenant-owned resource served with the shared conventions. The isolation and fuzz tests
 * run against each entry: adding a resource here is the one line that puts it under test.
 */
/** Who will send the body, for which client. */
export type BodyContext = { api: ApiClient; clientId: number };

export type TenantResourceCase = {
  path: string;
  /** Body fields that accept any value by design; the fuzz test never counts on them to break a body. */
  lenientFields?: readonly string[];
  /** Resources only owners and admins may use (staff get 403); default: all of the client's users. */
  ownersOnly?: boolean;
  /** A body that creates a new record in `clientId` (n makes unique values); may create what it refers to. */
  validBody: (n: number, context: BodyContext) => Promise<Record<string, unknown>> | Record<string, unknown>;
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
  {
    path: "/api/routeplans/",
    // A stop that is not a number means "the last place" (the spec's position rule).
    lenientFields: ["stop"],
    validBody: async (n, { api, clientId }) => {
      const group = await api.post(
        "/api/routes/",
        { route_name: `Plan group ${n}` },
        { client_id: clientId },
      );
      const matches = await api.get("/api/typeahead/customers/", { client_id: clientId });
      const [customer] = (matches.body as { results: { id: number }[] }).results;
      if (group.status !== 201 || !customer) throw new Error(`route plan fixtures missing: ${group.text}`);
      return {
        route: (group.body as { id: number }).id,
        customer: customer.id,
        stop: 0,
        bill_indicator_flag: "standard",
      };
    },
  },
  {
    path: "/api/customers/",
    validBody: (n) => ({
      first_name: "Isolated",
      last_name: `Customer ${n}`,
      pull_flag: "A",
      address1: "1 Main St",
      city: "Austin",
      state: "TX",
      zip: "73301",
    }),
  },
  {
    path: "/api/storedamounts/",
    validBody: async (n, context) => ({
      customer: await someCustomer(context),
      storedCode: await newCode(n, context),
      description: `Stored ${n}`,
      rate: "12.50",
      quantity: "2",
    }),
  },
  {
    path: "/api/autoamounts/",
    validBody: async (n, context) => ({
      customer: await someCustomer(context),
      auto_code: await newCode(n, context),
      description: `Recurring ${n}`,
      rate: "30",
      quantity: 1,
      start_month: 1,
      end_month: 12,
      frequency: "monthly",
      arrears: false,
    }),
  },
  {
    path: "/api/transactions/",
    validBody: async (n, context) => ({
      customer: await someCustomer(context),
      code: await newCode(n, context),
      description: `Entry ${n}`,
      rate: "5",
      force: true,
    }),
  },
  {
    path: "/api/invoices/",
    validBody: async (n, context) => ({
      customer: await someCustomer(context),
      invoice_date: `2024-05-${String((n % 28) + 1).padStart(2, "0")}`,
    }),
  },
];

async function someCustomer({ api, clientId }: BodyContext): Promise<number> {
  const matches = await api.get("/api/typeahead/customers/", { client_id: clientId });
  const [customer] = (matches.body as { results: { id: number }[] }).results;
  if (!customer) throw new Error(`no customer in client ${clientId}: ${matches.text}`);
  return customer.id;
}

async function newCode(n: number, { api, clientId }: BodyContext): Promise<number> {
  const created = await api.post(
    "/api/codes/",
    { code: 70_000 + n, description: `Code for ${n}`, code_type: "charge" },
    { client_id: clientId },
  );
  if (created.status !== 201) throw new Error(`code not created: ${created.text}`);
  return (created.body as { id: number }).id;
}
