import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type ApiResponse, type TestApp } from "../../test-support/test-app.js";
import { createUser } from "../users/create-user.js";

let testApp: TestApp;

beforeAll(async () => {
  // The test client connects from 127.0.0.1, a trusted proxy here: X-Forwarded-For picks the address.
  testApp = await startTestApp({ trustProxy: ["127.0.0.1"] });
});
afterAll(async () => testApp?.close());

function post(path: string, body: unknown, from: string): Promise<ApiResponse> {
  return testApp.client().request("POST", path, { body, headers: { "x-forwarded-for": from } });
}

function registration(email: string, firstName = "Reg") {
  return {
    firstName,
    lastName: "Istrant",
    email,
    password: "a sturdy passphrase",
    confirmPassword: "a sturdy passphrase",
  };
}

describe("POST /api/register/", () => {
  it("answers an email that already has an account exactly as a new one, and tells its owner instead", async () => {
    await createUser(testApp.db, {
      email: "owner.taken@example.com",
      password: "owner's own password",
      firstName: "Olga",
    });
    const fresh = await post("/api/register/", registration("brand.new@example.com", "Bea"), "192.0.2.50");
    const taken = await post("/api/register/", registration("Owner.Taken@example.com", "Bea"), "192.0.2.50");
    expect(fresh).toMatchObject({
      status: 201,
      body: {
        username: "brand.new@example.com",
        email: "brand.new@example.com",
        firstName: "Bea",
        lastName: "Istrant",
        name: "Bea Istrant",
      },
    });
    expect(taken.status).toBe(fresh.status);
    expect(taken.body).toEqual({
      ...(fresh.body as object),
      username: "owner.taken@example.com",
      email: "owner.taken@example.com",
    });

    // The address's owner is told, not welcomed, and the account is untouched.
    const notice = await testApp.mail.lastTo("owner.taken@example.com");
    expect(notice.subject).toBe("Someone tried to register with your email on Cyclebill");
    expect(notice.text).toContain("Forgot Password");
    expect(
      testApp.mail.messages.filter(
        (mail) => mail.to.includes("owner.taken") && mail.subject === "Confirm your email for Cyclebill",
      ),
    ).toEqual([]);
    expect((await testApp.mail.lastTo("brand.new@example.com")).subject).toBe(
      "Confirm your email for Cyclebill",
    );
    const ownLogin = await post(
      "/api/auth-jwt/",
      { username: "owner.taken@example.com", password: "owner's own password" },
      "192.0.2.51",
    );
    expect(ownLogin.status).toBe(200);
    const attempted = await post(
      "/api/auth-jwt/",
      { username: "owner.taken@example.com", password: "a sturdy passphrase" },
      "192.0.2.51",
    );
    expect(attempted.status).toBe(400);
  });

  it("accepts 10 of 40 parallel registrations from one address; another address still registers", async () => {
    const before = testApp.mail.messages.length;
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        post("/api/register/", registration(`burst-${index}@example.com`), "203.0.113.40"),
      ),
    );
    const statuses = burst.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    expect(burst.find((response) => response.status === 429)?.body).toEqual({
      detail: "Too many registrations from this address. Try again in 60 minutes.",
    });
    // Mail is sent before the answer: 10 welcomes, no more.
    expect(testApp.mail.messages.slice(before).filter((mail) => mail.to.startsWith("burst-"))).toHaveLength(
      10,
    );
    expect(
      (await post("/api/register/", registration("other-door@example.com"), "203.0.113.41")).status,
    ).toBe(201);
  });
});

describe("POST /api/reset-password/", () => {
  it("answers 20 bogus tokens an hour from one address with the spec's refusal, then 429", async () => {
    await createUser(testApp.db, { email: "reset.target@example.com", password: "reset target pass" });
    const bogus = (index: number) => ({
      email: "reset.target@example.com",
      password: `new sturdy pass ${index}`,
      password_confirmation: `new sturdy pass ${index}`,
      token: `not-a-token-${index}`,
    });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) => post("/api/reset-password/", bogus(index), "198.51.100.60")),
    );
    const refused = answers.filter((response) => response.status === 400);
    expect(refused).toHaveLength(20);
    expect(refused[0]?.body).toEqual({
      token: ["This password reset link is invalid or has expired. Request a new one."],
    });
    expect(answers.filter((response) => response.status === 429)).toHaveLength(80);
    expect(answers.find((response) => response.status === 429)?.body).toEqual({
      detail: "Too many password reset attempts from this address. Try again in 60 minutes.",
    });
    // Other addresses are not held back by it.
    expect((await post("/api/reset-password/", bogus(0), "198.51.100.61")).status).toBe(400);
  });
});
