import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { currentClock, setClock } from "../../clock.js";
import {
  createTenantFixture,
  startTestApp,
  type ApiResponse,
  type TestApp,
} from "../../test-support/test-app.js";
import { createUser } from "../users/create-user.js";

let testApp: TestApp;
const realClock = currentClock();

beforeAll(async () => {
  // The test client connects from 127.0.0.1, a trusted proxy here: X-Forwarded-For picks the address.
  testApp = await startTestApp({ trustProxy: ["127.0.0.1"] });
});
afterAll(async () => testApp?.close());
afterEach(() => setClock(realClock));

function logIn(username: string, password: string, from: string): Promise<ApiResponse> {
  return testApp.client().request("POST", "/api/auth-jwt/", {
    body: { username, password },
    headers: { "x-forwarded-for": from },
  });
}

function moveClock(minutes: number): void {
  const shifted = Date.now() + minutes * 60_000;
  setClock({ now: () => new Date(shifted) });
}

const LOCKED_15 = { detail: "Too many failed login attempts. Try again in 15 minutes." };

describe("login throttling", () => {
  it("checks at most 10 of 300 parallel guesses from one address; the admin still logs in from elsewhere", async () => {
    await createUser(testApp.db, {
      email: "admin-burst@example.com",
      password: "admin right pass",
      isAdmin: true,
    });
    const burst = await Promise.all(
      Array.from({ length: 300 }, (_, guess) =>
        logIn("admin-burst@example.com", `guess ${guess}`, "203.0.113.7"),
      ),
    );
    const statuses = burst.map((response) => response.status);
    // 400 means the password was checked and was wrong; every other guess was refused unchecked.
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(290);
    expect(burst.find((response) => response.status === 429)?.body).toEqual(LOCKED_15);

    // The guessing address is locked out of this account, even with the right password ...
    expect(await logIn("admin-burst@example.com", "admin right pass", "203.0.113.7")).toMatchObject({
      status: 429,
      body: LOCKED_15,
    });
    // ... but the admin, from another address, is not.
    expect((await logIn("admin-burst@example.com", "admin right pass", "198.51.100.2")).status).toBe(200);
  });

  it("locks an account and address pair for 15 minutes after 10 failures, then lets the right password in", async () => {
    await createUser(testApp.db, { email: "target@example.com", password: "right password" });
    for (let attempt = 0; attempt < 10; attempt += 1)
      expect((await logIn("target@example.com", `wrong ${attempt}`, "192.0.2.10")).status).toBe(400);
    expect(await logIn("target@example.com", "right password", "192.0.2.10")).toMatchObject({
      status: 429,
      body: LOCKED_15,
    });
    moveClock(10);
    expect((await logIn("target@example.com", "right password", "192.0.2.10")).body).toEqual({
      detail: "Too many failed login attempts. Try again in 5 minutes.",
    });
    moveClock(16);
    expect((await logIn("target@example.com", "right password", "192.0.2.10")).status).toBe(200);
  });

  it("starts the pair afresh after a successful login", async () => {
    await createUser(testApp.db, { email: "typo@example.com", password: "typo right pass" });
    for (let attempt = 0; attempt < 9; attempt += 1)
      await logIn("typo@example.com", "typo wrong", "192.0.2.11");
    expect((await logIn("typo@example.com", "typo right pass", "192.0.2.11")).status).toBe(200);
    for (let attempt = 0; attempt < 10; attempt += 1)
      expect((await logIn("typo@example.com", "typo wrong", "192.0.2.11")).status).toBe(400);
    expect((await logIn("typo@example.com", "typo right pass", "192.0.2.11")).status).toBe(429);
  });

  it("limits one address to 50 failures across accounts in 15 minutes", async () => {
    for (let account = 0; account < 50; account += 1)
      expect((await logIn(`sprayed-${account}@example.com`, "password1", "192.0.2.20")).status).toBe(400);
    expect(await logIn("sprayed-50@example.com", "password1", "192.0.2.20")).toMatchObject({
      status: 429,
      body: LOCKED_15,
    });
    expect((await logIn("sprayed-50@example.com", "password1", "192.0.2.21")).status).toBe(400);
  });

  it("cannot lock the provider admin out: 12 guessing addresses, then the right password from a 13th signs in", async () => {
    await createUser(testApp.db, {
      email: "provider-admin@example.com",
      password: "provider right pass",
      isAdmin: true,
    });
    const statuses: number[][] = [];
    for (let address = 1; address <= 12; address += 1) {
      const fromAddress: number[] = [];
      for (let attempt = 0; attempt < 10; attempt += 1)
        fromAddress.push(
          (await logIn("provider-admin@example.com", `nope ${attempt}`, `127.0.6.${address}`)).status,
        );
      statuses.push(fromAddress);
    }
    // 30 failures put the brake on: the first three addresses had their 10 checks, later ones 3 each.
    expect(
      statuses
        .slice(0, 3)
        .flat()
        .every((status) => status === 400),
    ).toBe(true);
    for (const fromAddress of statuses.slice(3))
      expect(fromAddress).toEqual([400, 400, 400, 429, 429, 429, 429, 429, 429, 429]);
    // A guessing address stays slowed even with the right password ...
    expect((await logIn("provider-admin@example.com", "provider right pass", "127.0.6.12")).status).toBe(429);
    // ... while the admin, from an address that is not guessing, signs in at once.
    expect((await logIn("provider-admin@example.com", "provider right pass", "127.0.6.13")).status).toBe(200);
    // So does a user who mistyped once from home.
    expect((await logIn("provider-admin@example.com", "provider typo", "127.0.6.14")).status).toBe(400);
    expect((await logIn("provider-admin@example.com", "provider right pass", "127.0.6.14")).status).toBe(200);
    // An hour later the brake is off: a fresh window of 10 checks per address.
    moveClock(61);
    for (let attempt = 0; attempt < 10; attempt += 1)
      expect((await logIn("provider-admin@example.com", "nope", "127.0.6.1")).status).toBe(400);
  });
});

describe("accounts under attack, as admins see them", () => {
  it("shows the client's owner a line for its attacked user, the provider's admin every account, the admin's own included", async () => {
    const fixture = await createTenantFixture(testApp);
    const target = await createUser(testApp.db, {
      email: "attacked-staff@example.com",
      password: "attacked right pass",
      firstName: "Ada",
      lastName: "Attacked",
      isClientStaff: true,
      clientId: fixture.a.clientId,
    });
    await createUser(testApp.db, {
      email: "attacked-admin@example.com",
      password: "admin pass 2",
      isAdmin: true,
    });
    const owner = testApp.client(fixture.a.ownerToken);
    expect((await owner.get("/api/users/login-alerts/")).body).toEqual({ count: 0, results: [] });

    // 30 failures are the limit; the 31st puts the brake on and the account on the list.
    for (let address = 1; address <= 4; address += 1)
      for (let attempt = 0; attempt < (address === 4 ? 1 : 10); attempt += 1) {
        await logIn("attacked-staff@example.com", "nope", `198.19.0.${address}`);
        await logIn("attacked-admin@example.com", "nope", `198.19.1.${address}`);
      }
    const alert = {
      user_id: target.id,
      email: "attacked-staff@example.com",
      name: "Ada Attacked",
      role: "staff",
      client: fixture.a.clientId,
      failed_logins: 31,
      addresses: 4,
    };
    const seen = await owner.get("/api/users/login-alerts/");
    expect(seen).toMatchObject({ status: 200, body: { count: 1, results: [alert] } });
    // Only the client's owners and the provider's admins: not staff, not another client.
    expect((await testApp.client(fixture.a.staffToken).get("/api/users/login-alerts/")).status).toBe(403);
    expect((await testApp.client(fixture.b.ownerToken).get("/api/users/login-alerts/")).body).toEqual({
      count: 0,
      results: [],
    });
    expect(
      (
        await testApp
          .client(fixture.b.ownerToken)
          .get("/api/users/login-alerts/", { client_id: fixture.a.clientId })
      ).status,
    ).toBe(404);
    expect((await owner.get("/api/login-alerts/")).status).toBe(403);

    const everyAccount = await testApp.client(fixture.adminToken).get("/api/login-alerts/");
    expect(everyAccount.status).toBe(200);
    expect((everyAccount.body as { results: unknown[] }).results).toEqual(
      expect.arrayContaining([
        expect.objectContaining(alert),
        expect.objectContaining({
          email: "attacked-admin@example.com",
          role: "admin",
          client: null,
          failed_logins: 31,
        }),
      ]),
    );
    // An hour on, the attack has passed.
    moveClock(61);
    expect((await owner.get("/api/users/login-alerts/")).body).toEqual({ count: 0, results: [] });
  });
});

describe("the address counted without a trusted proxy", () => {
  it("is the connection's: X-Forwarded-For from an untrusted peer changes nothing", async () => {
    const direct = await startTestApp();
    try {
      await createUser(direct.db, { email: "direct@example.com", password: "direct right pass" });
      const attempt = (password: string, from: string) =>
        direct.client().request("POST", "/api/auth-jwt/", {
          body: { username: "direct@example.com", password },
          headers: { "x-forwarded-for": from },
        });
      for (let guess = 0; guess < 10; guess += 1)
        expect((await attempt(`guess ${guess}`, `203.0.113.${guess}`)).status).toBe(400);
      expect((await attempt("direct right pass", "198.51.100.99")).status).toBe(429);
    } finally {
      await direct.close();
    }
  });
});
