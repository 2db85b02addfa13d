import type { FastifyInstance } from "fastify";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { buildApp } from "../app.js";
import { businessToday } from "../clock.js";
import { loadConfig, type Config, type JobSettings } from "../config.js";
import type { Database, JobBackend } from "../db/database.js";
import { startJobs, type JobQueue } from "../jobs/index.js";
import { createMailer } from "../modules/mail/mailer.js";
import type { DeliveryServices } from "../modules/delivery/delivery-jobs.js";
import { paymentGatewayOf } from "../modules/payments/payment-gateway.js";
import { clients, customers } from "../db/tables.js";
import { issueSessionToken } from "../modules/auth/start-session.js";
import { ledgerMismatches } from "../modules/ledger/ledger-mismatches.js";
import { createUser } from "../modules/users/create-user.js";
import { openTestDatabase } from "./test-database.js";
import { startTestSmtp, type TestSmtp } from "./test-smtp.js";
import { AUSTIN_ADDRESS, TEST_MAILING_ADDRESS } from "./mailing-address.js";

export const TEST_JWT_SECRET = "test-secret-for-api-tests-only-0123456789";

export type ApiResponse = { status: number; body: unknown; headers: Headers; text: string };

export type RequestOptions = {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Sent as-is, for malformed-input tests. */
  rawBody?: string;
  headers?: Record<string, string>;
};

export type ApiClient = {
  request: (method: string, path: string, options?: RequestOptions) => Promise<ApiResponse>;
  get: (path: string, query?: RequestOptions["query"]) => Promise<ApiResponse>;
  post: (path: string, body?: unknown, query?: RequestOptions["query"]) => Promise<ApiResponse>;
  put: (path: string, body?: unknown, query?: RequestOptions["query"]) => Promise<ApiResponse>;
  delete: (path: string, query?: RequestOptions["query"]) => Promise<ApiResponse>;
};

export type TestApp = {
  app: FastifyInstance;
  /** Mail the app sent, received by a real SMTP server. */
  mail: TestSmtp;
  db: Database;
  /** What pg-boss runs on for this database (tests that reach the queue directly). */
  jobBackend: JobBackend;
  /** The job engine, when the options asked for it. */
  jobs: JobQueue | undefined;
  baseUrl: string;
  config: Config;
  /** An HTTP client for the running server, signed in with the given token (or anonymous). */
  client: (token?: string) => ApiClient;
  close: () => Promise<void>;
};

export type TestAppOptions = {
  /** Also start the job engine on the test database, working on jobs in this process (polling fast). */
  jobs?: Partial<JobSettings>;
  /** Serve a built web app from this directory (static-serving tests); none by default. */
  webDistDir?: string;
  /** Proxies whose X-Forwarded-For is honoured (TRUST_PROXY); the test client connects from 127.0.0.1. */
  trustProxy?: string[];
  /** The card gateway (e.g. a sandbox's bp20post address); none by default. */
  bluepay?: Partial<Config["bluepay"]>;
  /** ADMIN_SECOND_FACTOR for this app: "optional" unless a test asks for "required". */
  adminSecondFactor?: "required" | "optional";
  /** Log at info level into this stream (tests that read the server's log). */
  logStream?: NodeJS.WritableStream;
  /** Holds the statement-email job's lanes where a test wants them (DeliveryServices.pause). */
  deliveryPause?: DeliveryServices["pause"];
};

/** The real server on a free port over a fresh database, spoken to over HTTP. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const mail = await startTestSmtp();
  const config: Config = {
    ...loadConfig({
      // Pools and the outbox write here; each test app has its own.
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "cyclebill-test-data-")),
      JWT_SECRET: TEST_JWT_SECRET,
      BILLING_SECRETS_KEY: "test-secrets-key",
      BILLING_DEMO: "0",
      // Existing tests sign admins in with a password alone; second-factor tests ask for "required".
      ADMIN_SECOND_FACTOR: options.adminSecondFactor ?? "optional",
    }),
    webDistDir: options.webDistDir ?? "/nonexistent-web-dist",
    smtpUrl: mail.url,
    publicUrl: "http://billing.test",
    trustProxy: options.trustProxy ?? [],
  };
  config.bluepay = { ...config.bluepay, ...options.bluepay };
  let jobs: JobQueue | undefined;
  if (options.jobs) {
    config.jobs = { ...config.jobs, pollSeconds: 0.5, maintenanceSeconds: 1, ...options.jobs };
    jobs = await startJobs({
      db: database.db,
      backend: database.jobBackend,
      settings: config.jobs,
      // TEST_LOG=1 prints the job engine's errors too.
      log: pino({ level: process.env.TEST_LOG === "1" ? "info" : "silent" }),
      work: true,
      services: {
        dataDir: config.dataDir,
        publicUrl: config.publicUrl,
        mailer: createMailer({ smtpUrl: mail.url, dataDir: config.dataDir, log: pino({ level: "silent" }) }),
        gateway: paymentGatewayOf(config),
        pause: options.deliveryPause,
      },
    });
  }
  // TEST_LOG=1 prints the server log (errors included) while debugging a test.
  const app = await buildApp(
    { db: database.db, config: { ...config, logLevel: options.logStream ? "info" : "error" }, jobs },
    options.logStream
      ? { logger: true, logStream: options.logStream }
      : { logger: process.env.TEST_LOG === "1" },
  );
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("server did not bind to a port");
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    app,
    mail,
    db: database.db,
    jobBackend: database.jobBackend,
    jobs,
    baseUrl,
    config,
    client: (token) => httpClient(baseUrl, token),
    close: async () => {
      await app.close();
      await jobs?.stop();
      // Whatever the file did over the API, the books must balance at its end.
      const mismatches = await ledgerMismatches(database.db);
      await mail.close();
      await database.close();
      if (mismatches.length > 0)
        throw new Error(`the books do not balance after this file: ${JSON.stringify(mismatches)}`);
    },
  };
}

export function httpClient(baseUrl: string, token?: string): ApiClient {
  const request = async (
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse> => {
    const url = new URL(path, baseUrl);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((key) => key.toLowerCase() === "content-type")) {
      headers["content-type"] = "application/json";
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get("content-type") ?? "").includes("application/json") && text !== "") {
      parsed = JSON.parse(text) as unknown;
    }
    return { status: response.status, body: parsed, headers: response.headers, text };
  };
  return {
    request,
    get: (path, query) => request("GET", path, { query }),
    post: (path, body, query) => request("POST", path, { body, query }),
    put: (path, body, query) => request("PUT", path, { body, query }),
    delete: (path, query) => request("DELETE", path, { query }),
  };
}

export type TenantUsers = { clientId: number; ownerToken: string; staffToken: string };
export type TenantFixture = { adminToken: string; a: TenantUsers; b: TenantUsers; unattachedToken: string };

let fixtureCounter = 0;

/** Two clients, each with an owner and a staff user, a provider admin, and a user of no client. */
export async function createTenantFixture(testApp: TestApp): Promise<TenantFixture> {
  fixtureCounter += 1;
  const tag = `${Date.now().toString(36)}${fixtureCounter}`;
  // Each token has its session, as a sign-in opens one (a token without one is refused).
  const token = (userId: number) =>
    issueSessionToken(testApp.db, TEST_JWT_SECRET, userId, { address: "127.0.0.1", userAgent: "api test" });
  const makeClient = async (letter: string, clientNo: number): Promise<TenantUsers> => {
    const [client] = await testApp.db
      .insert(clients)
      .values({ clientNo, clientName: `Client ${letter} ${tag}`, ...AUSTIN_ADDRESS })
      .returning();
    if (!client) throw new Error("client not created");
    // A couple of customers, so resources that refer to one have something to refer to. Opened on
    // the app's business date, as the API opens them (not the database server's current_date).
    const openDate = businessToday();
    await testApp.db.insert(customers).values([
      // Mailable: a run holds back a mailed statement without a complete address.
      {
        clientId: client.id,
        customerNo: 1,
        customerName: `First customer ${letter}`,
        openDate,
        lastName: "First",
        ...TEST_MAILING_ADDRESS,
      },
      {
        clientId: client.id,
        customerNo: 2,
        customerName: `Second customer ${letter}`,
        openDate,
        lastName: "Second",
        ...TEST_MAILING_ADDRESS,
      },
    ]);
    const owner = await createUser(testApp.db, {
      email: `owner-${letter}-${tag}@example.com`,
      password: null,
      clientId: client.id,
    });
    const staff = await createUser(testApp.db, {
      email: `staff-${letter}-${tag}@example.com`,
      password: null,
      clientId: client.id,
      isClientStaff: true,
    });
    return { clientId: client.id, ownerToken: await token(owner.id), staffToken: await token(staff.id) };
  };
  const base = 10_000 + fixtureCounter * 10 + Math.floor(Math.random() * 1000) * 100;
  const a = await makeClient("a", base + 1);
  const b = await makeClient("b", base + 2);
  const admin = await createUser(testApp.db, {
    email: `admin-${tag}@example.com`,
    password: null,
    isAdmin: true,
  });
  const unattached = await createUser(testApp.db, { email: `nobody-${tag}@example.com`, password: null });
  return { adminToken: await token(admin.id), a, b, unattachedToken: await token(unattached.id) };
}
