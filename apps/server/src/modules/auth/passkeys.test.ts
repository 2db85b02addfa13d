import { eq, like } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { INVALID_SECOND_FACTOR_CODE_MESSAGE, SECOND_FACTOR_ENROLMENT_MESSAGE } from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { currentClock } from "../../clock.js";
import { auditEvents, passkeyChallenges } from "../../db/tables.js";
import { softwarePasskey, type SoftwarePasskey } from "../../test-support/software-passkey.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import { createUser } from "../users/create-user.js";

// Passkeys (WebAuthn) as a second factor, under ADMIN_SECOND_FACTOR=required: enrolment, sign-in
// with its one-use challenge and signature counter, removal, and a provider admin's reset. A
// software authenticator (test-support/software-passkey.ts) stands in for the browser.
useTenantApp({ adminSecondFactor: "required" });

const PASSWORD = "passkey factor pass 1";
/** The test app's PUBLIC_URL: the relying party the passkeys belong to. */
const ORIGIN = "http://billing.test";
let counter = 0;

type Options = { options: { challenge: string; rp: { id: string }; rpId: string } };

async function newUser(options: { isAdmin?: boolean; clientId?: number } = {}) {
  counter += 1;
  const email = `passkey-${counter}-${Date.now().toString(36)}@example.com`;
  const user = await createUser(testApp.db, {
    email,
    password: PASSWORD,
    isAdmin: options.isAdmin ?? false,
    clientId: options.clientId ?? null,
    isClientStaff: false,
  });
  return { id: user.id, email };
}

const signIn = (email: string) =>
  testApp.client().post("/api/auth-jwt/", { username: email, password: PASSWORD });

async function tokenOf(email: string): Promise<string> {
  const answer = await signIn(email);
  expect(answer).toMatchObject({ status: 200, body: { token: expect.any(String) } });
  return (answer.body as { token: string }).token;
}

/** Adds a passkey through the API: the passkey and the fresh token. */
async function enrol(token: string, name = "Laptop") {
  const me = testApp.client(token);
  const started = await me.post("/api/me/second-factor/passkeys/options/");
  expect(started.status).toBe(200);
  const { options } = started.body as Options;
  expect(options.rp.id).toBe("billing.test");
  const passkey = softwarePasskey(ORIGIN);
  const added = await me.post("/api/me/second-factor/passkeys/", {
    name,
    response: passkey.register(options),
  });
  expect(added).toMatchObject({ status: 201, body: { passkey: { name }, token: expect.any(String) } });
  const body = added.body as { passkey: { id: number }; token: string };
  return { passkey, id: body.passkey.id, token: body.token };
}

/** The password step, then the passkey's options: the challenge and the options. */
async function passkeyStep(email: string) {
  const first = await signIn(email);
  expect(first.body).toMatchObject({ second_factor_required: true });
  const { challenge, methods } = first.body as { challenge: string; methods: string[] };
  const answer = await testApp.client().post("/api/auth-jwt/second-factor/passkey-options/", { challenge });
  expect(answer.status).toBe(200);
  return { challenge, methods, options: (answer.body as Options).options };
}

async function signInWith(email: string, passkey: SoftwarePasskey) {
  const { challenge, options } = await passkeyStep(email);
  return testApp
    .client()
    .post("/api/auth-jwt/second-factor/", { challenge, passkey: passkey.assert(options) });
}

describe("a passkey", () => {
  it("is added, then asked for at sign-in; a replayed or cloned answer is refused", async () => {
    const user = await newUser({ clientId: fixture.a.clientId });
    const token = await tokenOf(user.email);
    const { passkey, token: fresh } = await enrol(token);
    // Adding it ends the other sessions; the caller stays signed in with the fresh token.
    expect((await testApp.client(token).get("/api/me/")).status).toBe(401);
    expect((await testApp.client(fresh).get("/api/me/second-factor/")).body).toMatchObject({
      totp: { enrolled: false },
      passkeys: [{ name: "Laptop", last_used_at: null }],
    });

    const { challenge, methods, options } = await passkeyStep(user.email);
    expect(methods).toEqual(["passkey"]);
    expect(options.rpId).toBe("billing.test");
    const answer = passkey.assert(options);
    const signedIn = await testApp
      .client()
      .post("/api/auth-jwt/second-factor/", { challenge, passkey: answer });
    expect(signedIn).toMatchObject({ status: 200, body: { token: expect.any(String) } });
    // The same answer again: its challenge was spent.
    expect(
      await testApp.client().post("/api/auth-jwt/second-factor/", { challenge, passkey: answer }),
    ).toMatchObject({ status: 400, body: { non_field_errors: [INVALID_SECOND_FACTOR_CODE_MESSAGE] } });
    // A copy of the authenticator whose counter went back is refused.
    const step = await passkeyStep(user.email);
    expect(
      (
        await testApp.client().post("/api/auth-jwt/second-factor/", {
          challenge: step.challenge,
          passkey: passkey.assert(step.options, { counter: 1 }),
        })
      ).status,
    ).toBe(400);
    // Another origin's answer, or another authenticator's, is refused.
    const elsewhere = await passkeyStep(user.email);
    const phishing = softwarePasskey("http://billing.test.evil.example");
    expect(
      (
        await testApp.client().post("/api/auth-jwt/second-factor/", {
          challenge: elsewhere.challenge,
          passkey: {
            ...phishing.assert(elsewhere.options),
            id: passkey.credentialId,
            rawId: passkey.credentialId,
          },
        })
      ).status,
    ).toBe(400);
    // Still good with the right counter.
    expect((await signInWith(user.email, passkey)).status).toBe(200);
    const status = (await testApp.client(fresh).get("/api/me/")).status;
    expect(status).toBe(200);
  });

  it("refuses an expired challenge, a forged sign-in challenge, and two answers at once", async () => {
    const user = await newUser({ clientId: fixture.a.clientId });
    const { passkey } = await enrol(await tokenOf(user.email));
    const { challenge, options } = await passkeyStep(user.email);
    // Five minutes later the WebAuthn challenge is gone, though the answer is right.
    await testApp.db
      .update(passkeyChallenges)
      .set({ expiresAt: new Date(currentClock().now().getTime() - 1000) })
      .where(eq(passkeyChallenges.challenge, options.challenge));
    const late = await testApp.client().post("/api/auth-jwt/second-factor/", {
      challenge,
      passkey: passkey.assert(options),
    });
    expect(late).toMatchObject({
      status: 400,
      body: { non_field_errors: [INVALID_SECOND_FACTOR_CODE_MESSAGE] },
    });
    expect(
      (
        await testApp
          .client()
          .post("/api/auth-jwt/second-factor/passkey-options/", { challenge: `${challenge}x` })
      ).status,
    ).toBe(400);
    const next = await passkeyStep(user.email);
    const both = await testApp.client().post("/api/auth-jwt/second-factor/", {
      challenge: next.challenge,
      code: "123456",
      passkey: passkey.assert(next.options),
    });
    expect(both.status).toBe(400);
  });

  it("is removed with the password; a user with none signs in with the password alone", async () => {
    const user = await newUser({ clientId: fixture.b.clientId });
    const { id, token } = await enrol(await tokenOf(user.email), "Phone");
    const me = testApp.client(token);
    expect(
      (
        await me.request("DELETE", `/api/me/second-factor/passkeys/${id}/`, {
          body: { password: "wrong one" },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await me.request("DELETE", `/api/me/second-factor/passkeys/${id + 1000}/`, {
          body: { password: PASSWORD },
        })
      ).status,
    ).toBe(404);
    const removed = await me.request("DELETE", `/api/me/second-factor/passkeys/${id}/`, {
      body: { password: PASSWORD },
    });
    expect(removed).toMatchObject({ status: 200, body: { token: expect.any(String) } });
    expect((await me.get("/api/me/")).status).toBe(401);
    await tokenOf(user.email);
  });
});

describe("a provider admin under ADMIN_SECOND_FACTOR=required", () => {
  it("may enrol a passkey instead of an app, and keeps a factor to the last", async () => {
    const admin = await newUser({ isAdmin: true });
    const heldToken = await tokenOf(admin.email);
    expect((await testApp.client(heldToken).get("/api/clients/")).body).toMatchObject({
      detail: SECOND_FACTOR_ENROLMENT_MESSAGE,
    });
    const { passkey, id, token } = await enrol(heldToken);
    const me = testApp.client(token);
    expect((await me.get("/api/clients/")).status).toBe(200);
    expect(
      await me.request("DELETE", `/api/me/second-factor/passkeys/${id}/`, { body: { password: PASSWORD } }),
    ).toMatchObject({ status: 400, body: { non_field_errors: [expect.stringContaining("must keep")] } });

    // With an authenticator app beside it, either can go, but not both.
    const started = await me.post("/api/me/second-factor/totp/");
    const { secret } = started.body as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    const confirmed = await me.post("/api/me/second-factor/totp/confirm/", { code });
    expect(confirmed.status).toBe(200);
    const both = testApp.client((confirmed.body as { token: string }).token);
    expect((await signIn(admin.email)).body).toMatchObject({ methods: ["totp", "recovery_code", "passkey"] });
    const removed = await both.request("DELETE", "/api/me/second-factor/totp/", {
      body: { password: PASSWORD },
    });
    expect(removed.status).toBe(200);
    const { token: last } = removed.body as { token: string };
    expect(
      (
        await testApp
          .client(last)
          .request("DELETE", `/api/me/second-factor/passkeys/${id}/`, { body: { password: PASSWORD } })
      ).status,
    ).toBe(400);
    expect((await signInWith(admin.email, passkey)).status).toBe(200);
  });

  it("resets a user's lost passkeys with a reason, and the trail names none of their keys", async () => {
    const admin = await newUser({ isAdmin: true });
    const { token: adminToken } = await enrol(await tokenOf(admin.email));
    const user = await newUser({ clientId: fixture.a.clientId });
    const { passkey, token } = await enrol(await tokenOf(user.email), "Key A");
    const second = testApp.client(token);
    const more = await second.post("/api/me/second-factor/passkeys/options/");
    const other = softwarePasskey(ORIGIN);
    expect(
      (
        await second.post("/api/me/second-factor/passkeys/", {
          name: "Key B",
          response: other.register((more.body as Options).options),
        })
      ).status,
    ).toBe(201);
    expect((await signInWith(user.email, passkey)).status).toBe(200);

    const reset = await testApp
      .client(adminToken)
      .post(`/api/users/${user.id}/second-factor/reset/`, { reason: "Lost both keys, ticket 7" });
    expect(reset).toMatchObject({ status: 200, body: { detail: expect.stringContaining("removed") } });
    // A password alone signs in now.
    expect(
      (await testApp.client(await tokenOf(user.email)).get("/api/me/second-factor/")).body,
    ).toMatchObject({
      passkeys: [],
    });

    const rows = (
      await testApp.db
        .select()
        .from(auditEvents)
        .where(like(auditEvents.action, "second_factor.%"))
        .orderBy(auditEvents.clientId, auditEvents.seq)
    ).filter((row) => row.recordId === String(user.id));
    expect(rows.map((row) => row.action)).toEqual([
      "second_factor.passkey_options",
      "second_factor.passkey_enrol",
      "second_factor.passkey_options",
      "second_factor.passkey_enrol",
      "second_factor.passkey_options",
      "second_factor.use_passkey",
      "second_factor.reset",
    ]);
    expect(rows.at(-1)).toMatchObject({ reason: "Lost both keys, ticket 7", actorUserId: admin.id });
    expect(rows.at(-1)?.changes).toContainEqual(["passkeys", "2", null]);
    const registration = passkey.register({ challenge: "x", rp: { id: "billing.test" } });
    const key = registration.response.attestationObject.slice(-40);
    expect(JSON.stringify(rows)).not.toContain(key);
  });
});
