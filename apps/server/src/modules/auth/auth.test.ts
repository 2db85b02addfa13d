import { eq, sql } from "drizzle-orm";
import { INVALID_CREDENTIALS_MESSAGE } from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { passwordResetTokens, users } from "../../db/tables.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import { createUser } from "../users/create-user.js";

useTenantApp();

async function makeUser(
  email: string,
  password: string,
  extra: { clientId?: number; isClientStaff?: boolean } = {},
) {
  return createUser(testApp.db, { email, password, firstName: "Pat", lastName: "Lee", ...extra });
}

function confirmLinkIn(text: string): URL {
  const match = /https?:\/\/\S+\/register\/confirm\?\S+/.exec(text);
  if (!match) throw new Error(`no confirmation link in: ${text}`);
  return new URL(match[0]);
}

function resetLinkIn(text: string): URL {
  const match = /https?:\/\/\S+\/passwordReset\?\S+/.exec(text);
  if (!match) throw new Error(`no reset link in: ${text}`);
  return new URL(match[0]);
}

describe("POST /api/auth-jwt/", () => {
  it("logs in with the email or the username, case-insensitively, and counts logins", async () => {
    const user = await makeUser("Login.One@Example.com", "correct horse 1", { clientId: fixture.a.clientId });
    const anonymous = testApp.client();
    const byEmail = await anonymous.post("/api/auth-jwt/", {
      username: "login.one@example.com",
      password: "correct horse 1",
    });
    expect(byEmail.status).toBe(200);
    expect((byEmail.body as { token: string }).token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const byUsername = await anonymous.post("/api/auth-jwt/", {
      username: "LOGIN.ONE@EXAMPLE.COM",
      password: "correct horse 1",
    });
    expect(byUsername.status).toBe(200);
    const [row] = await testApp.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.loginCount).toBe(2);
    expect(row?.lastLogin).toBeInstanceOf(Date);
  });

  it("gives remembered logins a longer lifetime", async () => {
    await makeUser("remember@example.com", "correct horse 2");
    const lifetime = async (remember: boolean) => {
      const response = await testApp.client().post("/api/auth-jwt/", {
        username: "remember@example.com",
        password: "correct horse 2",
        remember_me: remember,
      });
      const token = (response.body as { token: string }).token;
      const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as {
        iat: number;
        exp: number;
      };
      return (payload.exp - payload.iat) / 3600;
    };
    expect(await lifetime(false)).toBe(12);
    expect(await lifetime(true)).toBe(30 * 24);
  });

  it("refuses wrong passwords, unknown users, inactive users and bad bodies", async () => {
    const inactive = await makeUser("inactive@example.com", "correct horse 3");
    await testApp.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));
    const anonymous = testApp.client();
    const wrong = { non_field_errors: ["Unable to log in with provided credentials."] };
    expect(
      await anonymous.post("/api/auth-jwt/", { username: "remember@example.com", password: "nope" }),
    ).toMatchObject({
      status: 400,
      body: wrong,
    });
    expect(
      (await anonymous.post("/api/auth-jwt/", { username: "ghost@example.com", password: "x" })).body,
    ).toEqual(wrong);
    expect(
      (
        await anonymous.post("/api/auth-jwt/", {
          username: "inactive@example.com",
          password: "correct horse 3",
        })
      ).body,
    ).toEqual(wrong);
    expect(await anonymous.post("/api/auth-jwt/", {})).toMatchObject({
      status: 400,
      body: { username: ["This field is required."], password: ["This field is required."] },
    });
    expect((await anonymous.post("/api/auth-jwt/", { username: 5, password: ["x"] })).status).toBe(400);
  });
});

describe("GET /api/me/ and POST /api/auth/logout/", () => {
  it("describes the user and their client, and says whether the client has a payment key", async () => {
    const me = await testApp.client(fixture.a.staffToken).get("/api/me/");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      userInfo: { is_client_staff: true, isAdmin: false, role: "staff", client_id: fixture.a.clientId },
      has_blue_pay_key: false,
    });
    expect((me.body as { userInfo: { client: { id: number } } }).userInfo.client.id).toBe(fixture.a.clientId);
    await testApp.db.execute(
      sql`update clients set bluepay_secret_key_encrypted = 'sealed' where id = ${fixture.a.clientId}`,
    );
    expect((await testApp.client(fixture.a.ownerToken).get("/api/me/")).body).toMatchObject({
      userInfo: { role: "owner" },
      has_blue_pay_key: true,
    });
    const admin = await testApp.client(fixture.adminToken).get("/api/me/", { client_id: fixture.a.clientId });
    expect(admin.body).toMatchObject({
      userInfo: { isAdmin: true, role: "admin", client_id: null },
      has_blue_pay_key: true,
    });
  });

  it("makes the token unusable after logout", async () => {
    await makeUser("leaver@example.com", "correct horse 4", { clientId: fixture.a.clientId });
    const login = await testApp
      .client()
      .post("/api/auth-jwt/", { username: "leaver@example.com", password: "correct horse 4" });
    const session = testApp.client((login.body as { token: string }).token);
    expect((await session.get("/api/me/")).status).toBe(200);
    expect(await session.post("/api/auth/logout/")).toMatchObject({
      status: 200,
      body: { detail: "Successfully logged out." },
    });
    expect(await session.get("/api/me/")).toMatchObject({ status: 401 });
    expect((await session.post("/api/auth/logout/")).status).toBe(401);
    expect((await testApp.client().get("/api/me/")).status).toBe(401);
    expect((await testApp.client("garbage.token.here").get("/api/me/")).status).toBe(401);
  });
});

describe("POST /api/register/", () => {
  it("registers a user attached to no client, who signs in once the emailed link proves the address", async () => {
    const response = await testApp.client().post("/api/register/", {
      firstName: "Rita",
      lastName: "Novak",
      email: "Rita@Example.com",
      password: "a good password",
      confirmPassword: "a good password",
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      username: "rita@example.com",
      email: "rita@example.com",
      name: "Rita Novak",
    });
    const credentials = { username: "rita@example.com", password: "a good password" };
    // Not before the link is followed (answered as a wrong password is).
    const early = await testApp.client().post("/api/auth-jwt/", credentials);
    expect(early).toMatchObject({ status: 400, body: { non_field_errors: [INVALID_CREDENTIALS_MESSAGE] } });
    const mail = await testApp.mail.lastTo("rita@example.com");
    expect(mail.subject).toBe("Confirm your email for Cyclebill");
    const link = confirmLinkIn(mail.text);
    expect(link.pathname).toBe("/register/confirm");
    const confirmed = await testApp.client().post("/api/register/confirm/", {
      email: link.searchParams.get("email"),
      token: link.searchParams.get("token"),
      password: "a good password",
    });
    expect(confirmed.status).toBe(200);
    const rita = testApp.client((confirmed.body as { token: string }).token);
    expect((await rita.get("/api/me/")).body).toMatchObject({ userInfo: { client_id: null, role: "owner" } });
    // Attached to no client, the account can do nothing yet.
    expect((await rita.get("/api/codes/")).status).toBe(403);
    expect((await testApp.client().post("/api/auth-jwt/", credentials)).status).toBe(200);
  });

  it("answers a taken email as a new one (no 'duplicate key'), and checks the fields", async () => {
    const body = {
      firstName: "A",
      lastName: "B",
      email: "rita@example.com",
      password: "another password",
      confirmPassword: "another password",
    };
    // Whether an email has an account is told to its owner by email, never in the answer.
    expect(await testApp.client().post("/api/register/", body)).toMatchObject({
      status: 201,
      body: { email: "rita@example.com", name: "A B" },
    });
    expect(
      (
        await testApp
          .client()
          .post("/api/register/", { ...body, email: "new@example.com", confirmPassword: "different!" })
      ).body,
    ).toEqual({
      confirmPassword: ["The two password fields didn't match."],
    });
    expect((await testApp.client().post("/api/register/", { ...body, email: "not-an-email" })).body).toEqual({
      email: ["Enter a valid email address."],
    });
    expect((await testApp.client().post("/api/register/", { email: "x@example.com" })).body).toMatchObject({
      firstName: ["This field is required."],
      lastName: ["This field is required."],
      password: ["This field is required."],
      confirmPassword: ["This field is required."],
    });
  });
});

describe("password reset", () => {
  it("emails a single-use link that sets a new password and ends old sessions", async () => {
    await makeUser("forgetful@example.com", "old password 1", { clientId: fixture.a.clientId });
    const oldLogin = await testApp
      .client()
      .post("/api/auth-jwt/", { username: "forgetful@example.com", password: "old password 1" });
    const oldSession = testApp.client((oldLogin.body as { token: string }).token);

    expect(
      await testApp.client().post("/api/forgot-password/", { email: "Forgetful@example.com" }),
    ).toMatchObject({
      status: 200,
      body: { success: true },
    });
    const mail = await testApp.mail.lastTo("forgetful@example.com");
    expect(mail.subject).toBe("Reset your Cyclebill password");
    const link = resetLinkIn(mail.text);
    expect(link.origin + link.pathname).toBe("http://billing.test/passwordReset");
    expect(link.searchParams.get("email")).toBe("forgetful@example.com");
    expect(link.searchParams.get("username")).toBe("forgetful@example.com");
    const token = link.searchParams.get("token") ?? "";
    expect(Buffer.from(token, "base64url").length).toBeGreaterThanOrEqual(16);
    // Only a hash of the token is stored.
    const stored = await testApp.db.select().from(passwordResetTokens);
    expect(stored.map((row) => row.tokenHash)).not.toContain(token);

    const reset = {
      email: "forgetful@example.com",
      password: "new password 2",
      password_confirmation: "new password 2",
      token,
    };
    expect(
      (await testApp.client().post("/api/reset-password/", { ...reset, password_confirmation: "other" }))
        .body,
    ).toEqual({
      password_confirmation: ["The two password fields didn't match."],
    });
    expect(
      (await testApp.client().post("/api/reset-password/", { ...reset, email: "someone@example.com" }))
        .status,
    ).toBe(400);
    expect(await testApp.client().post("/api/reset-password/", reset)).toMatchObject({
      status: 200,
      body: { success: true },
    });
    expect(await testApp.client().post("/api/reset-password/", reset)).toMatchObject({
      status: 400,
      body: { token: ["This password reset link is invalid or has expired. Request a new one."] },
    });

    expect(
      (
        await testApp
          .client()
          .post("/api/auth-jwt/", { username: "forgetful@example.com", password: "old password 1" })
      ).status,
    ).toBe(400);
    expect(
      (
        await testApp
          .client()
          .post("/api/auth-jwt/", { username: "forgetful@example.com", password: "new password 2" })
      ).status,
    ).toBe(200);
    expect((await oldSession.get("/api/me/")).status).toBe(401);
  });

  it("refuses expired tokens and answers unknown addresses like known ones", async () => {
    await makeUser("late@example.com", "old password 3");
    await testApp.client().post("/api/forgot-password/", { email: "late@example.com" });
    const token =
      resetLinkIn((await testApp.mail.lastTo("late@example.com")).text).searchParams.get("token") ?? "";
    await testApp.db.execute(sql`update password_reset_tokens set expires_at = now() - interval '1 minute'`);
    const expired = await testApp.client().post("/api/reset-password/", {
      email: "late@example.com",
      password: "new password 4",
      password_confirmation: "new password 4",
      token,
    });
    expect(expired.status).toBe(400);
    expect(expired.body).toHaveProperty("token");

    const before = testApp.mail.messages.length;
    expect(
      await testApp.client().post("/api/forgot-password/", { email: "nobody-here@example.com" }),
    ).toMatchObject({
      status: 200,
      body: { success: true },
    });
    expect(testApp.mail.messages.length).toBe(before);
    expect((await testApp.client().post("/api/forgot-password/", { email: "not an email" })).status).toBe(
      400,
    );
    expect((await testApp.client().post("/api/reset-password/", {})).body).toMatchObject({
      token: ["This field is required."],
    });
  });
});
