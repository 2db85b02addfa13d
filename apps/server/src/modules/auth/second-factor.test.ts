import { like } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import {
  INVALID_SECOND_FACTOR_CODE_MESSAGE,
  SECOND_FACTOR_ENROLMENT_MESSAGE,
  type SecondFactorChallenge,
} from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { auditEvents } from "../../db/tables.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import { createUser } from "../users/create-user.js";

// Second factors under ADMIN_SECOND_FACTOR=required: TOTP with recovery codes, the hold at
// enrolment, a client's requirement, and a provider admin's reset.
useTenantApp({ adminSecondFactor: "required" });

const PASSWORD = "second factor pass 1";
let counter = 0;

/** A code of the user's app, `steps` of 30 seconds from now (the server accepts one either side). */
function codeOf(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });
}

async function newUser(options: { isAdmin?: boolean; clientId?: number; staff?: boolean } = {}) {
  counter += 1;
  const email = `factor-${counter}-${Date.now().toString(36)}@example.com`;
  const user = await createUser(testApp.db, {
    email,
    password: PASSWORD,
    isAdmin: options.isAdmin ?? false,
    clientId: options.clientId ?? null,
    isClientStaff: options.staff ?? false,
  });
  return { id: user.id, email };
}

async function signIn(email: string): Promise<{ status: number; body: unknown }> {
  return testApp.client().post("/api/auth-jwt/", { username: email, password: PASSWORD });
}

async function tokenOf(email: string): Promise<string> {
  const answer = await signIn(email);
  expect(answer).toMatchObject({ status: 200, body: { token: expect.any(String) } });
  return (answer.body as { token: string }).token;
}

/** Enrols and confirms an authenticator app: its secret, the recovery codes and the fresh token. */
async function enrol(token: string) {
  const me = testApp.client(token);
  const started = await me.post("/api/me/second-factor/totp/");
  expect(started.status).toBe(201);
  const { secret, otpauth_uri, qr_code } = started.body as Record<string, string>;
  expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/Cyclebill:/);
  expect(qr_code).toMatch(/^data:image\/png;base64,/);
  const code = codeOf(secret ?? "");
  const confirmed = await me.post("/api/me/second-factor/totp/confirm/", { code });
  expect(confirmed.status).toBe(200);
  const body = confirmed.body as { recovery_codes: string[]; token: string };
  return { secret: secret ?? "", code, recoveryCodes: body.recovery_codes, token: body.token };
}

async function challengeOf(email: string): Promise<string> {
  const answer = await signIn(email);
  expect(answer.status).toBe(200);
  const body = answer.body as SecondFactorChallenge;
  expect(body).toEqual({
    second_factor_required: true,
    challenge: expect.any(String),
    methods: ["totp", "recovery_code"],
  });
  return body.challenge;
}

const secondStep = (body: Record<string, string>) =>
  testApp.client().post("/api/auth-jwt/second-factor/", body);

describe("an authenticator app", () => {
  it("is set up with a code, then asked for at sign-in; a used or wrong code is refused", async () => {
    const user = await newUser({ clientId: fixture.a.clientId });
    const token = await tokenOf(user.email);
    const me = testApp.client(token);
    expect(await me.get("/api/me/second-factor/")).toMatchObject({
      status: 200,
      body: { totp: { enrolled: false, pending: false }, recovery_codes_left: 0, required: false },
    });
    const started = await me.post("/api/me/second-factor/totp/");
    const { secret } = started.body as { secret: string };
    expect((await me.get("/api/me/second-factor/")).body).toMatchObject({ totp: { pending: true } });
    // A wrong code does not confirm it.
    const wrong = String((Number(codeOf(secret)) + 1) % 1_000_000).padStart(6, "0");
    expect(await me.post("/api/me/second-factor/totp/confirm/", { code: wrong })).toMatchObject({
      status: 400,
      body: { code: [INVALID_SECOND_FACTOR_CODE_MESSAGE] },
    });
    const code = codeOf(secret);
    const confirmed = await me.post("/api/me/second-factor/totp/confirm/", { code });
    expect(confirmed.status).toBe(200);
    const { recovery_codes: recoveryCodes, token: fresh } = confirmed.body as {
      recovery_codes: string[];
      token: string;
    };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    // Confirming ends the other sessions; the caller stays signed in with the fresh token.
    expect((await me.get("/api/me/")).status).toBe(401);
    expect(await testApp.client(fresh).get("/api/me/second-factor/")).toMatchObject({
      status: 200,
      body: { totp: { enrolled: true, pending: false }, recovery_codes_left: 10 },
    });

    // Signing in now takes two steps.
    const challenge = await challengeOf(user.email);
    expect(await secondStep({ challenge, code })).toMatchObject({
      status: 400,
      body: { non_field_errors: [INVALID_SECOND_FACTOR_CODE_MESSAGE] },
    });
    expect((await secondStep({ challenge, code: wrong })).status).toBe(400);
    const next = codeOf(secret, 1);
    const signedIn = await secondStep({ challenge, code: next });
    expect(signedIn).toMatchObject({ status: 200, body: { token: expect.any(String) } });
    const token2 = (signedIn.body as { token: string }).token;
    expect((await testApp.client(token2).get("/api/me/")).status).toBe(200);
    // The same code once more is refused, even with a fresh challenge.
    expect((await secondStep({ challenge: await challengeOf(user.email), code: next })).status).toBe(400);
    // A challenge is not an access token, and a forged one gets nothing.
    expect((await testApp.client(challenge).get("/api/me/")).status).toBe(401);
    expect((await secondStep({ challenge: `${challenge}x`, code: codeOf(secret) })).status).toBe(400);
    // The code that signed in is in the user's trail (the refused ones wrote nothing), never the code.
    const used = await testApp.db
      .select()
      .from(auditEvents)
      .where(like(auditEvents.action, "second_factor.use_totp"))
      .orderBy(auditEvents.clientId, auditEvents.seq);
    const mine = used.filter((row) => row.recordId === String(user.id));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ actorUserId: user.id, changes: [["totp", "confirmed", "code used"]] });
    expect(JSON.stringify(mine)).not.toContain(next);
  });

  it("signs in with a recovery code once", async () => {
    const user = await newUser({ clientId: fixture.b.clientId });
    const { recoveryCodes, token } = await enrol(await tokenOf(user.email));
    const [first] = recoveryCodes;
    const signedIn = await secondStep({
      challenge: await challengeOf(user.email),
      recovery_code: first ?? "",
    });
    expect(signedIn).toMatchObject({ status: 200, body: { token: expect.any(String) } });
    expect(
      await secondStep({ challenge: await challengeOf(user.email), recovery_code: first ?? "" }),
    ).toMatchObject({ status: 400, body: { non_field_errors: [INVALID_SECOND_FACTOR_CODE_MESSAGE] } });
    // Typed in capitals with spaces, a code still counts.
    const second = (recoveryCodes[1] ?? "").toUpperCase().replace("-", " ");
    expect(
      (await secondStep({ challenge: await challengeOf(user.email), recovery_code: second })).status,
    ).toBe(200);
    expect((await testApp.client(token).get("/api/me/second-factor/")).body).toMatchObject({
      recovery_codes_left: 8,
    });
  });

  it("is removed with the password, and recovery codes are regenerated with a code", async () => {
    const user = await newUser({ clientId: fixture.a.clientId, staff: true });
    const { secret, token } = await enrol(await tokenOf(user.email));
    const me = testApp.client(token);
    const regenerated = await me.post("/api/me/second-factor/recovery-codes/", { code: codeOf(secret, 1) });
    expect(regenerated.status).toBe(200);
    expect((regenerated.body as { recovery_codes: string[] }).recovery_codes).toHaveLength(10);
    expect(
      (await me.request("DELETE", "/api/me/second-factor/totp/", { body: { password: "not it at all" } }))
        .status,
    ).toBe(400);
    const removed = await me.request("DELETE", "/api/me/second-factor/totp/", {
      body: { password: PASSWORD },
    });
    expect(removed).toMatchObject({ status: 200, body: { token: expect.any(String) } });
    expect((await me.get("/api/me/")).status).toBe(401);
    // A password alone signs in again.
    await tokenOf(user.email);
  });
});

describe("a provider admin under ADMIN_SECOND_FACTOR=required", () => {
  it("is held at enrolment until a factor is set up, and cannot remove the last one", async () => {
    const admin = await newUser({ isAdmin: true });
    const token = await tokenOf(admin.email);
    const held = testApp.client(token);
    expect(await held.get("/api/customers/", { client_id: fixture.a.clientId })).toMatchObject({
      status: 403,
      body: { detail: SECOND_FACTOR_ENROLMENT_MESSAGE },
    });
    expect((await held.get("/api/clients/")).status).toBe(403);
    expect(await held.get("/api/me/")).toMatchObject({
      status: 200,
      body: { second_factor_enrolment_required: true, userInfo: { isAdmin: true } },
    });
    expect((await held.get("/api/me/second-factor/")).body).toMatchObject({ required: true });
    const { code, token: fresh } = await enrol(token);
    const admitted = testApp.client(fresh);
    expect((await admitted.get("/api/customers/", { client_id: fixture.a.clientId })).status).toBe(200);
    expect((await admitted.get("/api/me/")).body).toMatchObject({ second_factor_enrolment_required: false });
    expect(
      await admitted.request("DELETE", "/api/me/second-factor/totp/", { body: { password: PASSWORD } }),
    ).toMatchObject({ status: 400, body: { non_field_errors: [expect.stringContaining("must keep")] } });
    expect(code).toMatch(/^\d{6}$/);
  });

  it("requires a factor of a client's users, and resets a user's lost factor with a reason", async () => {
    const admin = await newUser({ isAdmin: true });
    const { token: adminToken } = await enrol(await tokenOf(admin.email));
    const asAdmin = testApp.client(adminToken);
    const staff = await newUser({ clientId: fixture.b.clientId, staff: true });
    const staffToken = await tokenOf(staff.email);
    expect((await testApp.client(staffToken).get("/api/customers/")).status).toBe(200);

    // The client requires a second factor: its users are held until they set one up.
    const client = (await asAdmin.get(`/api/clients/${fixture.b.clientId}/`)).body as Record<string, unknown>;
    expect(client.require_second_factor).toBe(false);
    const saved = await asAdmin.put(`/api/clients/${fixture.b.clientId}/`, {
      ...client,
      require_second_factor: true,
    });
    expect(saved).toMatchObject({ status: 200, body: { require_second_factor: true } });
    const held = testApp.client(staffToken);
    expect(await held.get("/api/customers/")).toMatchObject({
      status: 403,
      body: { detail: SECOND_FACTOR_ENROLMENT_MESSAGE },
    });
    expect((await held.get("/api/me/")).body).toMatchObject({ second_factor_enrolment_required: true });
    const { token: staffFresh, secret } = await enrol(staffToken);
    expect((await testApp.client(staffFresh).get("/api/customers/")).status).toBe(200);

    // The staff user lost their phone: an admin resets the factor, with a reason.
    const reset = `/api/users/${staff.id}/second-factor/reset/`;
    expect((await asAdmin.post(reset, {})).status).toBe(400);
    expect((await asAdmin.post(reset, { reason: "   " })).status).toBe(400);
    expect((await testApp.client(staffFresh).post(reset, { reason: "mine" })).status).toBe(403);
    expect(await asAdmin.post(reset, { reason: "Lost phone, ticket 42" })).toMatchObject({ status: 200 });
    expect((await testApp.client(staffFresh).get("/api/me/")).status).toBe(401);
    // Back to a password, held at enrolment again (the client still requires one).
    const again = await tokenOf(staff.email);
    expect((await testApp.client(again).get("/api/customers/")).status).toBe(403);
    expect((await testApp.client(again).get("/api/me/second-factor/")).body).toMatchObject({
      totp: { enrolled: false },
      required: true,
    });

    // The trail: every step, the reset's reason, and never a secret or a code.
    const rows = await testApp.db
      .select()
      .from(auditEvents)
      .where(like(auditEvents.action, "second_factor.%"))
      // A user's rows are in their client's chain: its seq is their order (a heap scan has none).
      .orderBy(auditEvents.clientId, auditEvents.seq);
    const mine = rows.filter((row) => row.recordId === String(staff.id));
    expect(mine.map((row) => row.action)).toEqual([
      "second_factor.enrol",
      "second_factor.confirm",
      "second_factor.reset",
    ]);
    expect(mine.at(-1)).toMatchObject({ reason: "Lost phone, ticket 42", actorUserId: admin.id });
    const trail = JSON.stringify(rows);
    expect(trail).not.toContain(secret);
    const all = await testApp.db.select().from(auditEvents);
    expect(JSON.stringify(all)).not.toContain(secret);
    await asAdmin.put(`/api/clients/${fixture.b.clientId}/`, { ...client, require_second_factor: false });
  });
});
