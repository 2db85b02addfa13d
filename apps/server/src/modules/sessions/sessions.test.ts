import { and, eq } from "drizzle-orm";
import { WRONG_CURRENT_PASSWORD_MESSAGE, type Session } from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { currentClock, setClock } from "../../clock.js";
import { auditEvents, userSessions } from "../../db/tables.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import { createUser } from "../users/create-user.js";

useTenantApp();

const CHROME_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const REFUSED = { status: 401, body: { detail: "Given token not valid for any token type" } };

let counter = 0;

/** A proven user with a password, in client A unless told otherwise. */
async function makeUser(
  extra: { clientId?: number | null; isClientStaff?: boolean; isAdmin?: boolean } = {},
) {
  counter += 1;
  const email = `session-${counter}-${Date.now().toString(36)}@example.com`;
  const password = `correct horse ${counter}`;
  const user = await createUser(testApp.db, {
    email,
    password,
    clientId: extra.clientId === undefined ? fixture.a.clientId : extra.clientId,
    isClientStaff: extra.isClientStaff ?? false,
    isAdmin: extra.isAdmin ?? false,
  });
  return { id: user.id, email, password };
}

async function signIn(user: { email: string; password: string }, userAgent = CHROME_LINUX): Promise<string> {
  const response = await testApp.client().request("POST", "/api/auth-jwt/", {
    body: { username: user.email, password: user.password },
    headers: { "user-agent": userAgent },
  });
  expect(response.status).toBe(200);
  return (response.body as { token: string }).token;
}

async function sessionsOf(token: string, userId?: number): Promise<Session[]> {
  const response = await testApp.client(token).get("/api/sessions/", { user_id: userId });
  expect(response.status).toBe(200);
  return (response.body as { count: number; results: Session[] }).results;
}

/** Asked twice, so the second answer comes from the authentication cache. */
async function warm(token: string): Promise<void> {
  expect((await testApp.client(token).get("/api/me/")).status).toBe(200);
  expect((await testApp.client(token).get("/api/me/")).status).toBe(200);
}

function auditRows(action: string, userId: number) {
  return testApp.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.recordId, String(userId))));
}

describe("sessions", () => {
  it("lists each sign-in with its device and address, open ones first, the caller's marked current", async () => {
    const user = await makeUser();
    const first = await signIn(user, CHROME_LINUX);
    const second = await signIn(user, FIREFOX_WINDOWS);
    const listed = await sessionsOf(second);
    expect(listed).toHaveLength(2);
    expect(listed.map((session) => [session.device, session.current, session.active])).toEqual(
      expect.arrayContaining([
        ["Chrome on Linux", false, true],
        ["Firefox on Windows", true, true],
      ]),
    );
    expect(listed[0]).toMatchObject({ user_id: user.id, address: "127.0.0.1", ended_at: null });
    expect(listed.find((session) => session.current)?.user_agent).toBe(FIREFOX_WINDOWS);
    // Logout ends the session: listed as ended, after the open one.
    expect((await testApp.client(first).post("/api/auth/logout/")).status).toBe(200);
    expect(await testApp.client(first).get("/api/me/")).toMatchObject(REFUSED);
    const after = await sessionsOf(second);
    expect(after.map((session) => [session.device, session.active, session.end_reason])).toEqual([
      ["Firefox on Windows", true, null],
      ["Chrome on Linux", false, "logout"],
    ]);
  });

  it("ends one session: its token is refused on the next request (cache included), the other works", async () => {
    const user = await makeUser();
    const laptop = await signIn(user, CHROME_LINUX);
    const phone = await signIn(user, FIREFOX_WINDOWS);
    await warm(laptop);
    await warm(phone);
    const other = (await sessionsOf(laptop)).find((session) => !session.current);
    const ended = await testApp.client(laptop).post(`/api/sessions/${other?.id}/end/`);
    expect(ended).toMatchObject({ status: 200, body: { id: other?.id, active: false, end_reason: "ended" } });
    expect(await testApp.client(phone).get("/api/me/")).toMatchObject(REFUSED);
    expect((await testApp.client(laptop).get("/api/me/")).status).toBe(200);
    const [row] = await auditRows("session.end", user.id);
    expect(row).toMatchObject({
      actorUserId: user.id,
      address: "127.0.0.1",
      recordKind: "user",
      reason: "ended",
    });
    expect(row?.changes[0]?.[1]).toContain("Firefox on Windows");
  });

  it("lets an owner list and end their client's users' sessions, and answers 404 for another client's", async () => {
    const owner = await makeUser();
    const staff = await makeUser({ isClientStaff: true });
    const foreign = await makeUser({ clientId: fixture.b.clientId });
    const ownerToken = await signIn(owner);
    const staffToken = await signIn(staff);
    const foreignToken = await signIn(foreign);
    await warm(staffToken);
    const [staffSession] = await sessionsOf(ownerToken, staff.id);
    expect(staffSession).toMatchObject({ user_id: staff.id, current: false, active: true });
    expect((await testApp.client(ownerToken).post(`/api/sessions/${staffSession?.id}/end/`)).status).toBe(
      200,
    );
    expect(await testApp.client(staffToken).get("/api/me/")).toMatchObject(REFUSED);
    const [row] = await auditRows("session.end", staff.id);
    expect(row).toMatchObject({ actorUserId: owner.id, clientId: fixture.a.clientId });

    expect((await testApp.client(ownerToken).get("/api/sessions/", { user_id: foreign.id })).status).toBe(
      404,
    );
    const [foreignSession] = await sessionsOf(foreignToken);
    expect((await testApp.client(ownerToken).post(`/api/sessions/${foreignSession?.id}/end/`)).status).toBe(
      404,
    );
    expect((await testApp.client(foreignToken).get("/api/me/")).status).toBe(200);
  });

  it("keeps staff to their own sessions", async () => {
    const staff = await makeUser({ isClientStaff: true });
    const colleague = await makeUser();
    const staffToken = await signIn(staff);
    const colleagueToken = await signIn(colleague);
    const [colleagueSession] = await sessionsOf(colleagueToken);
    expect((await testApp.client(staffToken).get("/api/sessions/", { user_id: colleague.id })).status).toBe(
      403,
    );
    expect((await testApp.client(staffToken).post(`/api/sessions/${colleagueSession?.id}/end/`)).status).toBe(
      403,
    );
    expect((await testApp.client(colleagueToken).get("/api/me/")).status).toBe(200);
    expect((await testApp.client(staffToken).get("/api/sessions/", { user_id: staff.id })).status).toBe(200);
  });

  it("lets a provider admin end anyone's session", async () => {
    const admin = await makeUser({ clientId: null, isAdmin: true });
    const owner = await makeUser({ clientId: fixture.b.clientId });
    const adminToken = await signIn(admin);
    const ownerToken = await signIn(owner);
    await warm(ownerToken);
    const [ownerSession] = await sessionsOf(adminToken, owner.id);
    expect((await testApp.client(adminToken).post(`/api/sessions/${ownerSession?.id}/end/`)).status).toBe(
      200,
    );
    expect(await testApp.client(ownerToken).get("/api/me/")).toMatchObject(REFUSED);
    expect(await auditRows("session.end", owner.id)).toMatchObject([
      { actorUserId: admin.id, clientId: fixture.b.clientId },
    ]);
    expect((await testApp.client(adminToken).get("/api/sessions/", { user_id: 987_654_321 })).status).toBe(
      404,
    );
  });

  it("signs out everywhere else", async () => {
    const user = await makeUser();
    const here = await signIn(user);
    const there = [await signIn(user, FIREFOX_WINDOWS), await signIn(user, FIREFOX_WINDOWS)];
    for (const token of there) await warm(token);
    expect(await testApp.client(here).post("/api/sessions/end-others/")).toMatchObject({
      status: 200,
      body: { ended: 2 },
    });
    for (const token of there) expect(await testApp.client(token).get("/api/me/")).toMatchObject(REFUSED);
    expect((await testApp.client(here).get("/api/me/")).status).toBe(200);
    const [row] = await auditRows("session.end_others", user.id);
    expect(row?.changes).toHaveLength(2);
    expect(row?.reason).toBe("signed_out_elsewhere");
  });

  it("changes the password with the current one, ending the other sessions but not this one", async () => {
    const user = await makeUser();
    const here = await signIn(user);
    const there = await signIn(user, FIREFOX_WINDOWS);
    await warm(there);
    const wrong = await testApp
      .client(here)
      .post("/api/me/password/", { current_password: "not it at all", new_password: "a brand new secret 1" });
    expect(wrong).toMatchObject({
      status: 400,
      body: { current_password: [WRONG_CURRENT_PASSWORD_MESSAGE] },
    });
    expect((await testApp.client(there).get("/api/me/")).status).toBe(200);
    const common = await testApp
      .client(here)
      .post("/api/me/password/", { current_password: user.password, new_password: "password123" });
    expect(common).toMatchObject({ status: 400, body: { new_password: [expect.any(String)] } });

    const changed = await testApp
      .client(here)
      .post("/api/me/password/", { current_password: user.password, new_password: "a brand new secret 1" });
    expect(changed).toMatchObject({ status: 200, body: { success: true, ended_sessions: 1 } });
    expect(await testApp.client(there).get("/api/me/")).toMatchObject(REFUSED);
    expect((await testApp.client(here).get("/api/me/")).status).toBe(200);
    expect(
      (await testApp.client().post("/api/auth-jwt/", { username: user.email, password: user.password }))
        .status,
    ).toBe(400);
    await signIn({ email: user.email, password: "a brand new secret 1" });

    const [change] = await auditRows("user.change_password", user.id);
    expect(change?.changes).toEqual([["password_hash", "••••", "••••"]]);
    expect(await auditRows("session.end_others", user.id)).toMatchObject([{ reason: "password_changed" }]);
  });

  it("throttles wrong current passwords as sign-in is", async () => {
    const user = await makeUser();
    const token = await signIn(user);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      const response = await testApp.client(token).post("/api/me/password/", {
        current_password: `guess ${attempt}`,
        new_password: "a brand new secret 2",
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("refreshes last seen at most once a minute, and refuses a token without a session", async () => {
    const user = await makeUser();
    const token = await signIn(user);
    const [before] = await sessionsOf(token);
    const clock = currentClock();
    const later = new Date(clock.now().getTime() + 2 * 60_000);
    setClock({ now: () => later });
    try {
      await testApp.client(token).get("/api/me/");
      const [after] = await sessionsOf(token);
      expect(after?.last_seen_at).toBe(later.toISOString());
      expect(after?.last_seen_at).not.toBe(before?.last_seen_at);
    } finally {
      setClock(clock);
    }
    await testApp.db.delete(userSessions).where(eq(userSessions.userId, user.id));
    expect(await testApp.client(token).get("/api/me/")).toMatchObject(REFUSED);
  });
});
