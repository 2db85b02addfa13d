import type { RunningServer } from "./server.js";

// Fixtures through the API, as a user would make them, so browser tests start from known data.

export type ApiSession = {
  /** Calls /api/{path} with the session's token; throws unless the status is 2xx. */
  request: <T>(method: string, path: string, body?: unknown) => Promise<T>;
  token: string;
};

export async function apiLogIn(
  server: RunningServer,
  username: string,
  password: string,
): Promise<ApiSession> {
  const response = await fetch(`${server.baseUrl}/api/auth-jwt/`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok)
    throw new Error(`Login as ${username} failed: ${response.status} ${await response.text()}`);
  const { token } = (await response.json()) as { token: string };

  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { Accept: "application/json", Authorization: `Bearer ${token}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const answer = await fetch(`${server.baseUrl}/api/${path.replace(/^\//, "")}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${text}`);
    return (text === "" ? undefined : JSON.parse(text)) as T;
  };
  return { request, token };
}

export type ClientFixture = { id: number; client_no: number; client_name: string } & Record<string, unknown>;

export function createClient(api: ApiSession, clientName: string): Promise<ClientFixture> {
  return api.request<ClientFixture>("POST", "clients/", { client_name: clientName });
}

export type CodeFixture = {
  id: number;
  code: number;
  code_name: string;
  description: string;
  code_type: string;
  taxable: boolean;
};

export function createCode(
  api: ApiSession,
  clientId: number,
  code: { code: number; description: string; code_type: string; taxable?: boolean },
): Promise<CodeFixture> {
  return api.request<CodeFixture>("POST", `codes/?client_id=${clientId}`, code);
}

export type CustomerFixture = { id: number; customer_no: number; customer_name: string };

/** The session's customer numbered `customerNo` (the demo's 1004, say); throws when there is none. */
export async function findCustomerByNumber(api: ApiSession, customerNo: number): Promise<CustomerFixture> {
  const found = await api.request<{ results: CustomerFixture[] }>(
    "GET",
    `customers/?query=${customerNo}&limit=5`,
  );
  const match = found.results.find((row) => row.customer_no === customerNo);
  if (!match) throw new Error(`customer ${customerNo} is missing`);
  return match;
}

/** The mailing address test customers and clients get unless a test names its own. */
export const TEST_ADDRESS = { address1: "1 Main St", city: "Austin", state: "TX", zip: "73301" } as const;

/** A customer of the client at TEST_ADDRESS, with `fields` (names, flags, another address) on top. */
export function createCustomer(
  api: ApiSession,
  clientId: number,
  fields: Record<string, unknown>,
): Promise<CustomerFixture> {
  return api.request<CustomerFixture>("POST", `customers/?client_id=${clientId}`, {
    ...TEST_ADDRESS,
    ...fields,
  });
}

/** One customer per [first, last] name at TEST_ADDRESS, by first name. */
export async function createCustomers(
  api: ApiSession,
  clientId: number,
  names: readonly (readonly [string, string])[],
): Promise<Record<string, CustomerFixture>> {
  const customers: Record<string, CustomerFixture> = {};
  for (const [first, last] of names)
    customers[first] = await createCustomer(api, clientId, { first_name: first, last_name: last });
  return customers;
}

/** A client billing on `cycle` at TEST_ADDRESS (a statement needs the sender's address), `extra` on top. */
export async function createCycleClient(
  api: ApiSession,
  clientName: string,
  cycle: number,
  extra: Record<string, unknown> = {},
): Promise<ClientFixture> {
  const client = await createClient(api, clientName);
  const record = await api.request<Record<string, unknown>>("GET", `clients/${client.id}/`);
  await api.request("PUT", `clients/${client.id}/?client_id=${client.id}`, {
    ...record,
    ...TEST_ADDRESS,
    normal_cycle: cycle,
    ...extra,
  });
  return client;
}

export type EntryFixture = {
  customer: number;
  code: number;
  description: string;
  rate: string;
} & Record<string, unknown>;

/** Posts one entry of quantity 1 (unit of measure 1) to the client's ledger. */
export function postEntry(api: ApiSession, clientId: number, entry: EntryFixture): Promise<{ id: number }> {
  return api.request<{ id: number }>("POST", `transactions/?client_id=${clientId}`, {
    quantity: "1",
    unitofmeasure: 1,
    ...entry,
  });
}

export type RunFixture = { id: number; status: string };

/**
 * Starts a production run of `cycle` and polls it until `finished` (by default: done) or a minute
 * passes; returns the run as last read.
 */
export async function runCycle<T extends RunFixture = RunFixture>(
  api: ApiSession,
  cycle: number,
  body: { run_date: string; client_ids?: number[] },
  finished: (run: T) => boolean = (run) => run.status === "done",
): Promise<T> {
  const started = await api.request<T>("POST", `dailyproduction/cycle/${cycle}/`, body);
  let run = started;
  await waitUntil(async () => {
    run = await api.request<T>("GET", `productionruns/${started.id}/`);
    return finished(run);
  }, `production run ${started.id} to finish`);
  return run;
}

/** Polls outside a test (set-up hooks cannot use expect.poll). */
export async function waitUntil(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** An open invoice of the customer's (dated `invoiceDate` when given). */
export function createInvoice(
  api: ApiSession,
  clientId: number,
  customerId: number,
  invoiceDate?: string,
): Promise<{ id: number; invoice_num: number }> {
  return api.request<{ id: number; invoice_num: number }>("POST", `invoices/?client_id=${clientId}`, {
    customer: customerId,
    ...(invoiceDate === undefined ? {} : { invoice_date: invoiceDate }),
  });
}
