import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiResponse } from "../../test-support/test-app.js";
import { startTestApp, type TestApp } from "../../test-support/test-app.js";
import { createUser } from "../users/create-user.js";
import { commonPasswords } from "./common-passwords.js";

let testApp: TestApp;

beforeAll(async () => {
  // X-Forwarded-For from the test client (127.0.0.1, trusted here) sets the address counted.
  testApp = await startTestApp({ trustProxy: ["127.0.0.1"] });
});
afterAll(async () => testApp?.close());

const COMMON = "This password is too common. Choose a less predictable one.";
const REPEATED = "This password is one character repeated. Choose a less predictable one.";

describe("new passwords (OWASP ASVS 2.1)", () => {
  it("ships the top 10,000 breached passwords of 8 or more characters", () => {
    const list = commonPasswords();
    expect(list.size).toBe(10_000);
    for (const password of ["password", "12345678", "qwertyuiop", "iloveyou"])
      expect(list.has(password)).toBe(true);
  });

  it("refuses common and one-character passwords at registration", async () => {
    const register = (email: string, password: string) =>
      testApp.client().post("/api/register/", {
        firstName: "Weak",
        lastName: "Choice",
        email,
        password,
        confirmPassword: password,
      });
    const cases: [string, string][] = [
      ["password", COMMON],
      ["PassWord", COMMON],
      ["12345678", COMMON],
      ["aaaaaaaa", REPEATED],
      ["        ", REPEATED],
    ];
    for (const [password, message] of cases) {
      const response = await register("weak@example.com", password);
      expect({ password, status: response.status, body: response.body }).toEqual({
        password,
        status: 400,
        body: { password: [message] },
      });
    }
    expect(
      (await testApp.client().post("/api/auth-jwt/", { username: "weak@example.com", password: "x" })).status,
    ).toBe(400);
    expect((await register("weak@example.com", "sturdy lantern 42")).status).toBe(201);
  });

  it("refuses them when a password is reset, and keeps the link usable", async () => {
    await createUser(testApp.db, { email: "resetter@example.com", password: "first sturdy pass" });
    await testApp.client().post("/api/forgot-password/", { email: "resetter@example.com" });
    const text = (await testApp.mail.lastTo("resetter@example.com")).text;
    const link = new URL(/https?:\/\/\S+\/passwordReset\?\S+/.exec(text)?.[0] ?? "http://missing");
    const reset = (password: string) =>
      testApp.client().post("/api/reset-password/", {
        email: "resetter@example.com",
        token: link.searchParams.get("token"),
        password,
        password_confirmation: password,
      });
    expect(await reset("iloveyou")).toMatchObject({ status: 400, body: { password: [COMMON] } });
    expect(await reset("zzzzzzzzzz")).toMatchObject({ status: 400, body: { password: [REPEATED] } });
    expect(await reset("second sturdy pass")).toMatchObject({ status: 200, body: { success: true } });
  });
});

describe("POST /api/forgot-password/ limits", () => {
  const forgot = (email: string, from: string): Promise<ApiResponse> =>
    testApp.client().request("POST", "/api/forgot-password/", {
      body: { email },
      headers: { "x-forwarded-for": from },
    });

  it("sends at most 5 emails an hour to one address, answering every request alike", async () => {
    await createUser(testApp.db, { email: "spammed@example.com", password: "spammed sturdy pass" });
    const mailsTo = () =>
      testApp.mail.messages.filter((mail) => mail.to.includes("spammed@example.com")).length;
    const before = mailsTo();
    // 25 requests from 5 addresses (under their own limit): the answer never changes.
    for (let request = 0; request < 25; request += 1)
      expect(await forgot("Spammed@example.com", `192.0.2.${100 + (request % 5)}`)).toMatchObject({
        status: 200,
        body: { success: true },
      });
    // The request awaits the SMTP hand-over and the test server records a mail before it accepts it, so
    // when the last answer is back every mail that will ever come is already counted: no wait needed.
    expect(mailsTo() - before).toBe(5);
  });

  it("answers 429 past 20 requests an hour from one address", async () => {
    for (let request = 0; request < 20; request += 1)
      expect((await forgot(`unknown-${request}@example.com`, "198.51.100.50")).status).toBe(200);
    expect(await forgot("unknown-20@example.com", "198.51.100.50")).toMatchObject({
      status: 429,
      body: { detail: "Too many password reset requests. Try again in 60 minutes." },
    });
    expect((await forgot("unknown-20@example.com", "198.51.100.51")).status).toBe(200);
  });
});
