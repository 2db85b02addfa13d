import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { clients, users } from "../../db/tables.js";
import { createUser } from "./create-user.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";

useTenantApp();

/** A user as the users form posts it. */
const userBody = (firstName: string, lastName: string, email: string, isStaff = true) => ({
  firstName,
  lastName,
  email,
  isStaff,
});

/** A client's name as the table holds it. */
async function clientName(clientId: number): Promise<string> {
  const [client] = await testApp.db
    .select({ name: clients.clientName })
    .from(clients)
    .where(eq(clients.id, clientId));
  return client?.name ?? "?";
}

type User = {
  id: number;
  email: string;
  name: string;
  role: string;
  is_client_staff: boolean;
  client: number;
  has_password: boolean;
};

describe("/api/users/", () => {
  it("names the business, not the provider's admin, when an admin adds a client's user", async () => {
    const admin = testApp.client(fixture.adminToken);
    const created = await admin.post(
      `/api/users/?client_id=${fixture.b.clientId}`,
      userBody("Ines", "Alves", "ines.invite@example.com", false),
    );
    expect(created.status).toBe(201);
    const clientB = await clientName(fixture.b.clientId);
    const mail = await testApp.mail.lastTo("ines.invite@example.com");
    expect(mail.subject).toBe(`You have a Cyclebill account for ${clientB}`);
    expect(mail.text).toContain(`Your billing provider added you to ${clientB}'s billing on Cyclebill.`);
  });

  it("lets an owner add a user, who is emailed a link to set a password and can then log in", async () => {
    const owner = testApp.client(fixture.a.ownerToken);
    const created = await owner.post("/api/users/", userBody("Nia", "Okafor", "Nia@Example.com"));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      email: "nia@example.com",
      name: "Nia Okafor",
      role: "staff",
      is_client_staff: true,
      client: fixture.a.clientId,
      has_password: false,
    });
    const mail = await testApp.mail.lastTo("nia@example.com");
    const clientA = await clientName(fixture.a.clientId);
    expect(mail.subject).toBe(`You have a Cyclebill account for ${clientA}`);
    expect(mail.text).toContain(`added you to ${clientA}'s billing on Cyclebill`);
    const link = new URL(/https?:\/\/\S+\/passwordReset\?\S+/.exec(mail.text)?.[0] ?? "http://missing");
    const reset = await testApp.client().post("/api/reset-password/", {
      email: link.searchParams.get("email"),
      token: link.searchParams.get("token"),
      password: "nia's password",
      password_confirmation: "nia's password",
    });
    expect(reset.status).toBe(200);
    const login = await testApp
      .client()
      .post("/api/auth-jwt/", { username: "nia@example.com", password: "nia's password" });
    expect(login.status).toBe(200);
    const me = await testApp.client((login.body as { token: string }).token).get("/api/me/");
    expect(me.body).toMatchObject({ userInfo: { client_id: fixture.a.clientId, is_client_staff: true } });

    const list = await owner.get("/api/users/", { ordering: "email" });
    expect(list.status).toBe(200);
    const emails = (list.body as { results: User[] }).results.map((user) => user.email);
    expect(emails).toContain("nia@example.com");
    expect(emails.every((email) => !email.startsWith("admin-"))).toBe(true);
  });

  it("updates with the full body and deletes", async () => {
    const owner = testApp.client(fixture.a.ownerToken);
    const created = (await owner.post("/api/users/", userBody("Ole", "Berg", "ole@example.com")))
      .body as User;
    const updated = await owner.put(
      `/api/users/${created.id}/`,
      userBody("Ole", "Bergström", "ole.berg@example.com", false),
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: "Ole Bergström",
      email: "ole.berg@example.com",
      role: "owner",
    });
    expect((await owner.delete(`/api/users/${created.id}/`)).status).toBe(204);
    expect((await owner.get(`/api/users/${created.id}/`)).status).toBe(404);
  });

  it("refuses staff with 403, other clients with 404, and bad input with 400", async () => {
    const staff = testApp.client(fixture.a.staffToken);
    expect(await staff.get("/api/users/")).toMatchObject({
      status: 403,
      body: { detail: "Only the client's owners and the provider's admins manage users." },
    });
    expect((await staff.post("/api/users/", userBody("X", "Y", "xy@example.com"))).status).toBe(403);

    const owner = testApp.client(fixture.a.ownerToken);
    const created = (await owner.post("/api/users/", userBody("Kim", "Ro", "kim@example.com"))).body as User;
    const otherOwner = testApp.client(fixture.b.ownerToken);
    expect((await otherOwner.get(`/api/users/${created.id}/`)).status).toBe(404);
    expect((await otherOwner.delete(`/api/users/${created.id}/`)).status).toBe(404);
    expect((await otherOwner.get("/api/users/", { client_id: fixture.a.clientId })).status).toBe(404);

    expect((await owner.post("/api/users/", { firstName: "", email: "bad" })).body).toEqual({
      firstName: ["This field may not be blank."],
      lastName: ["This field is required."],
      email: ["Enter a valid email address."],
    });
    const duplicate = await owner.post("/api/users/", userBody("K", "R", "KIM@example.com"));
    expect(duplicate.status).toBe(400);
    expect((duplicate.body as { email: string[] }).email[0]).toContain("duplicate key");
  });

  it("lets admins manage any client's users, and keeps owners from removing themselves", async () => {
    const admin = testApp.client(fixture.adminToken);
    const created = await admin.post("/api/users/", userBody("Bo", "Admin-Made", "bo@example.com", false), {
      client_id: fixture.b.clientId,
    });
    expect(created.status).toBe(201);
    expect((created.body as User).client).toBe(fixture.b.clientId);
    const me = (await testApp.client(fixture.a.ownerToken).get("/api/me/")).body as {
      userInfo: { id: number };
    };
    expect(await testApp.client(fixture.a.ownerToken).delete(`/api/users/${me.userInfo.id}/`)).toMatchObject({
      status: 400,
      body: { non_field_errors: ["You cannot delete your own account."] },
    });
  });

  it("answers an email another client's user has as for a new user, and tells that address instead", async () => {
    const other = await createUser(testApp.db, {
      email: "taken.elsewhere@example.com",
      password: "their own sturdy pass",
      firstName: "Tia",
      lastName: "Elsewhere",
      clientId: fixture.b.clientId,
    });
    const owner = testApp.client(fixture.a.ownerToken);
    const fresh = await owner.post("/api/users/", userBody("Una", "New", "una.new@example.com"));
    const taken = await owner.post("/api/users/", userBody("Guess", "Who", "Taken.Elsewhere@example.com"));
    expect(taken.status).toBe(fresh.status);
    const body = taken.body as User & Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(Object.keys(fresh.body as object).sort());
    expect(body).toMatchObject({
      email: "taken.elsewhere@example.com",
      name: "Guess Who",
      role: "staff",
      client: fixture.a.clientId,
      has_password: false,
      last_login: null,
      login_count: 0,
    });
    // A fresh id, after the one just created, not the other account's.
    expect(body.id).toBeGreaterThan((fresh.body as User).id);
    expect(body.id).not.toBe(other.id);

    // The other account is untouched, and its owner is told rather than invited.
    const [row] = await testApp.db.select().from(users).where(eq(users.id, other.id));
    expect(row).toMatchObject({ clientId: fixture.b.clientId, firstName: "Tia", isClientStaff: false });
    const mail = await testApp.mail.lastTo("taken.elsewhere@example.com");
    expect(mail.subject).toBe("Someone tried to add your email to Cyclebill");
    expect(mail.text).not.toMatch(/passwordReset/);
    expect(
      testApp.mail.messages.filter(
        (message) =>
          message.to.includes("taken.elsewhere") && message.subject === "You have a Cyclebill account",
      ),
    ).toEqual([]);

    // The provider's admin, who sees every client anyway, still hears that the email is taken.
    const byAdmin = await testApp
      .client(fixture.adminToken)
      .post("/api/users/", userBody("G", "W", "taken.elsewhere@example.com"), {
        client_id: fixture.a.clientId,
      });
    expect(byAdmin.status).toBe(400);
    expect((byAdmin.body as { email: string[] }).email[0]).toContain("duplicate key");
  });

  it("refuses an owner's edit to another client's or the provider admin's email alike, naming no account", async () => {
    await createUser(testApp.db, {
      email: "held.by.b@example.com",
      password: "b's sturdy pass",
      clientId: fixture.b.clientId,
    });
    await createUser(testApp.db, {
      email: "provider.boss@example.com",
      password: "boss pass 1",
      isAdmin: true,
    });
    const owner = testApp.client(fixture.a.ownerToken);
    const mine = (await owner.post("/api/users/", userBody("Eda", "Edit", "eda@example.com"))).body as User;
    const colleague = (await owner.post("/api/users/", userBody("Col", "League", "col@example.com")))
      .body as User;
    const editTo = (email: string) => owner.put(`/api/users/${mine.id}/`, userBody("Eda", "Edit", email));

    const refused = {
      status: 400,
      body: { email: ["This email address cannot be given to this user. Choose another one."] },
    };
    expect(await editTo("held.by.b@example.com")).toMatchObject(refused);
    expect(await editTo("Provider.Boss@example.com")).toMatchObject(refused);
    // A clash within the owner's own client leaks nothing: the spec's duplicate-key message stays.
    const own = await editTo("col@example.com");
    expect(own.status).toBe(400);
    expect((own.body as { email: string[] }).email[0]).toContain("duplicate key");
    expect(colleague.email).toBe("col@example.com");
    // Nothing changed.
    expect((await owner.get(`/api/users/${mine.id}/`)).body).toMatchObject({ email: "eda@example.com" });
    // The provider's admin sees every client: told plainly.
    const byAdmin = await testApp
      .client(fixture.adminToken)
      .put(`/api/users/${mine.id}/`, userBody("Eda", "Edit", "held.by.b@example.com"), {
        client_id: fixture.a.clientId,
      });
    expect((byAdmin.body as { email: string[] }).email[0]).toContain("duplicate key");
  });
});
