import { eq } from "drizzle-orm";
import {
  CONFIRM_LINK_INVALID_MESSAGE,
  EMAIL_ALREADY_PROVEN_MESSAGE,
  INVALID_CREDENTIALS_MESSAGE,
} from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { clients, users } from "../../db/tables.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import { attachUser, UNPROVEN_ACCOUNT_MESSAGE } from "./attach-user.js";
import { createUser } from "./create-user.js";

// Issue 39: an account belongs to whoever proves its email.
useTenantApp();

type User = { id: number; email: string; has_password: boolean; client: number };

const registration = (email: string, password: string, firstName = "Sam") => ({
  firstName,
  lastName: "Stranger",
  email,
  password,
  confirmPassword: password,
});

const newUser = (email: string, firstName = "New") => ({ firstName, lastName: "Hire", email, isStaff: true });

function linkIn(text: string, path: string): URL {
  const match = new RegExp(`https?://\\S+${path.replace("/", "\\/")}\\?\\S+`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return new URL(match[0]);
}

async function clientNoOf(clientId: number): Promise<string> {
  const [row] = await testApp.db
    .select({ clientNo: clients.clientNo })
    .from(clients)
    .where(eq(clients.id, clientId));
  return String(row?.clientNo);
}

const signIn = (username: string, password: string) =>
  testApp.client().post("/api/auth-jwt/", { username, password });

describe("an email claimed before its owner", () => {
  it("stays unusable: attach-user refuses it, and the owner's invitation replaces it", async () => {
    const email = "newhire@greenway.example";
    // Anyone registers the address with their own password.
    expect(
      (await testApp.client().post("/api/register/", registration(email, "stranger's pass 1"))).status,
    ).toBe(201);
    const strangerLink = linkIn((await testApp.mail.lastTo(email)).text, "/register/confirm");
    // The stranger cannot sign in, and the provider cannot attach the account.
    expect(await signIn(email, "stranger's pass 1")).toMatchObject({
      status: 400,
      body: { non_field_errors: [INVALID_CREDENTIALS_MESSAGE] },
    });
    const clientNo = await clientNoOf(fixture.a.clientId);
    expect(await attachUser(testApp.db, { email, clientNo, staff: true })).toEqual({
      ok: false,
      message: `${email} ${UNPROVEN_ACCOUNT_MESSAGE}`,
    });

    // The client's owner adds the address: a real user, and the invitation goes to the address.
    const owner = testApp.client(fixture.a.ownerToken);
    const added = await owner.post("/api/users/", newUser(email));
    expect(added.status).toBe(201);
    const user = added.body as User;
    expect(await owner.get(`/api/users/${user.id}/`)).toMatchObject({
      status: 200,
      body: { id: user.id, email, has_password: false, client: fixture.a.clientId },
    });
    const invitation = await testApp.mail.lastTo(email);
    expect(invitation.subject).toMatch(/^You have a Cyclebill account for /);

    // The stranger's password and link are void.
    const confirm = await testApp.client().post("/api/register/confirm/", {
      email,
      token: strangerLink.searchParams.get("token"),
      password: "stranger's pass 1",
    });
    expect(confirm).toMatchObject({ status: 400, body: { token: [CONFIRM_LINK_INVALID_MESSAGE] } });
    expect((await signIn(email, "stranger's pass 1")).status).toBe(400);

    // The address's owner follows the invitation and works in the client.
    const link = linkIn(invitation.text, "/passwordReset");
    const reset = await testApp.client().post("/api/reset-password/", {
      email,
      token: link.searchParams.get("token"),
      password: "the new hire's pass",
      password_confirmation: "the new hire's pass",
    });
    expect(reset.status).toBe(200);
    const login = await signIn(email, "the new hire's pass");
    expect(login.status).toBe(200);
    const me = await testApp.client((login.body as { token: string }).token).get("/api/me/");
    expect(me.body).toMatchObject({ userInfo: { id: user.id, client_id: fixture.a.clientId } });
  });

  it("answers an owner's add of an address proven elsewhere with a real user that never signs in", async () => {
    const other = await createUser(testApp.db, {
      email: "proven.elsewhere@example.com",
      password: "their sturdy pass",
      firstName: "Pia",
      clientId: fixture.b.clientId,
    });
    const owner = testApp.client(fixture.a.ownerToken);
    const fresh = (await owner.post("/api/users/", newUser("fresh.hire@example.com"))).body as User;
    const taken = await owner.post("/api/users/", newUser("Proven.Elsewhere@example.com", "Guess"));
    expect(taken.status).toBe(201);
    const pending = taken.body as User;
    expect(Object.keys(pending).sort()).toEqual(Object.keys(fresh).sort());
    expect(pending.id).not.toBe(other.id);
    // The id exists: the owner reads it, lists it and may delete it, as any invited user.
    expect(await owner.get(`/api/users/${pending.id}/`)).toMatchObject({
      status: 200,
      body: { email: "proven.elsewhere@example.com", has_password: false, client: fixture.a.clientId },
    });
    const listed = (await owner.get("/api/users/")).body as { results: User[] };
    expect(listed.results.map((row) => row.id)).toContain(pending.id);
    // The address is told, not invited; its account is as it was and still signs in.
    const notice = await testApp.mail.lastTo("proven.elsewhere@example.com");
    expect(notice.subject).toBe("Someone tried to add your email to Cyclebill");
    expect(notice.text).not.toMatch(/passwordReset/);
    const [row] = await testApp.db.select().from(users).where(eq(users.id, other.id));
    expect(row).toMatchObject({ clientId: fixture.b.clientId, firstName: "Pia" });
    const login = await signIn("proven.elsewhere@example.com", "their sturdy pass");
    const me = await testApp.client((login.body as { token: string }).token).get("/api/me/");
    expect(me.body).toMatchObject({ userInfo: { id: other.id, client_id: fixture.b.clientId } });
    // A reset link goes to the proven account, not the pending one.
    await testApp.client().post("/api/forgot-password/", { email: "proven.elsewhere@example.com" });
    const reset = linkIn((await testApp.mail.lastTo("proven.elsewhere@example.com")).text, "/passwordReset");
    expect(
      (
        await testApp.client().post("/api/reset-password/", {
          email: "proven.elsewhere@example.com",
          token: reset.searchParams.get("token"),
          password: "pia's next pass",
          password_confirmation: "pia's next pass",
        })
      ).status,
    ).toBe(200);
    expect((await signIn("proven.elsewhere@example.com", "pia's next pass")).status).toBe(200);
    expect((await owner.delete(`/api/users/${pending.id}/`)).status).toBe(204);
  });

  it("answers registration and sign-in alike whether or not the email was taken", async () => {
    await createUser(testApp.db, { email: "taken.reg@example.com", password: "owner's own pass" });
    const free = await testApp
      .client()
      .post("/api/register/", registration("free.reg@example.com", "my pass 2024"));
    const taken = await testApp
      .client()
      .post("/api/register/", registration("taken.reg@example.com", "my pass 2024"));
    expect(taken.status).toBe(free.status);
    const afterFree = await signIn("free.reg@example.com", "my pass 2024");
    const afterTaken = await signIn("taken.reg@example.com", "my pass 2024");
    expect(afterFree).toMatchObject({
      status: 400,
      body: { non_field_errors: [INVALID_CREDENTIALS_MESSAGE] },
    });
    expect(afterTaken.status).toBe(afterFree.status);
    expect(afterTaken.body).toEqual(afterFree.body);
  });

  it("proves a registration only with its link and the registrant's password; a later registration replaces it", async () => {
    const email = "twice.reg@example.com";
    await testApp.client().post("/api/register/", registration(email, "first pass 111"));
    const first = linkIn((await testApp.mail.lastTo(email)).text, "/register/confirm");
    await testApp.client().post("/api/register/", registration(email, "second pass 222", "Sue"));
    const second = linkIn((await testApp.mail.lastTo(email)).text, "/register/confirm");
    expect(second.searchParams.get("token")).not.toBe(first.searchParams.get("token"));
    const confirm = (token: string | null, password: string) =>
      testApp.client().post("/api/register/confirm/", { email, token, password });
    // The first link was spent by the second registration.
    expect((await confirm(first.searchParams.get("token"), "first pass 111")).status).toBe(400);
    // The link with another password proves nothing and stays usable.
    expect(await confirm(second.searchParams.get("token"), "first pass 111")).toMatchObject({
      status: 400,
      body: { non_field_errors: [INVALID_CREDENTIALS_MESSAGE] },
    });
    expect(await confirm("not-a-token", "second pass 222")).toMatchObject({
      status: 400,
      body: { token: [CONFIRM_LINK_INVALID_MESSAGE] },
    });
    const proven = await confirm(second.searchParams.get("token"), "second pass 222");
    expect(proven.status).toBe(200);
    const me = await testApp.client((proven.body as { token: string }).token).get("/api/me/");
    expect(me.body).toMatchObject({ userInfo: { firstName: "Sue", client_id: null } });
    // Proven now: the provider may attach it.
    const clientNo = await clientNoOf(fixture.b.clientId);
    expect(await attachUser(testApp.db, { email, clientNo: "10x1", staff: false })).toEqual({
      ok: false,
      message: '--client takes a client number, got "10x1".',
    });
    expect((await attachUser(testApp.db, { email, clientNo, staff: false })).ok).toBe(true);
  });

  it("lets the first of two clients' invitations prove the address; the other's link then says so", async () => {
    const email = "wanted.twice@example.com";
    await testApp.client(fixture.a.ownerToken).post("/api/users/", newUser(email));
    const fromA = linkIn((await testApp.mail.lastTo(email)).text, "/passwordReset");
    await testApp.client(fixture.b.ownerToken).post("/api/users/", newUser(email));
    const fromB = linkIn((await testApp.mail.lastTo(email)).text, "/passwordReset");
    const accept = (link: URL) =>
      testApp.client().post("/api/reset-password/", {
        email,
        token: link.searchParams.get("token"),
        password: "wanted pass 99",
        password_confirmation: "wanted pass 99",
      });
    expect((await accept(fromB)).status).toBe(200);
    expect(await accept(fromA)).toMatchObject({
      status: 400,
      body: { email: [EMAIL_ALREADY_PROVEN_MESSAGE] },
    });
    const login = await signIn(email, "wanted pass 99");
    const me = await testApp.client((login.body as { token: string }).token).get("/api/me/");
    expect(me.body).toMatchObject({ userInfo: { client_id: fixture.b.clientId } });
  });
});
