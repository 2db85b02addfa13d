import { eq, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import type { AccessReviewRecord, AccessReviewUser } from "@cyclebill/domain";
import { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { businessToday } from "../../clock.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbJson, dbText } from "../../db/row-schemas.js";
import { users } from "../../db/tables.js";
import { softwarePasskey } from "../../test-support/software-passkey.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import { createUser } from "../users/create-user.js";

// Issue 39: "the access review lists what it should" — roles, factors, last sign-in and sessions,
// per client for its owner and provider-wide for an admin; the CSV with its date; and a review
// recorded with who, when and a note, and audited.
useTenantApp();

const PASSWORD = "access review pass 1";
const tag = Date.now().toString(36);
const enrolledEmail = `enrolled-${tag}@example.com`;
const invitedEmail = `invited-${tag}@example.com`;
const disabledEmail = `disabled-${tag}@example.com`;

type Page<T> = { count: number; results: T[] };

beforeAll(async () => {
  // A staff user who signs in and sets up an authenticator app through the API.
  await createUser(testApp.db, {
    email: enrolledEmail,
    password: PASSWORD,
    firstName: "Erin",
    lastName: "Enrolled",
    clientId: fixture.a.clientId,
    isClientStaff: true,
  });
  const signIn = await testApp
    .client()
    .post("/api/auth-jwt/", { username: enrolledEmail, password: PASSWORD });
  expect(signIn.status).toBe(200);
  const me = testApp.client((signIn.body as { token: string }).token);
  const started = await me.post("/api/me/second-factor/totp/");
  expect(started.status).toBe(201);
  const secret = (started.body as { secret: string }).secret;
  const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
  const confirmed = await me.post("/api/me/second-factor/totp/confirm/", { code });
  expect(confirmed.status).toBe(200);
  // A passkey beside the app (the test app's PUBLIC_URL is the relying party).
  const withApp = testApp.client((confirmed.body as { token: string }).token);
  const options = await withApp.post("/api/me/second-factor/passkeys/options/");
  expect(options.status).toBe(200);
  const passkey = softwarePasskey("http://billing.test");
  const added = await withApp.post("/api/me/second-factor/passkeys/", {
    name: "Laptop",
    response: passkey.register(
      (options.body as { options: { challenge: string; rp: { id: string } } }).options,
    ),
  });
  expect(added.status, added.text).toBe(201);
  // An owner's invitation nobody has followed yet, and a disabled owner.
  await createUser(testApp.db, {
    email: invitedEmail,
    password: null,
    clientId: fixture.a.clientId,
    emailVerified: false,
  });
  const disabled = await createUser(testApp.db, {
    email: disabledEmail,
    password: null,
    clientId: fixture.a.clientId,
  });
  await testApp.db.update(users).set({ isActive: false }).where(eq(users.id, disabled.id));
});

const owner = () => testApp.client(fixture.a.ownerToken);

async function reviewOf(token: string, query: Record<string, string | number> = {}) {
  const answer = await testApp.client(token).get("/api/access-review/", query);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Page<AccessReviewUser>;
}

describe("the access review list", () => {
  it("shows an owner their client's users: role, factors, last sign-in, sessions, proven email", async () => {
    const page = await reviewOf(fixture.a.ownerToken);
    expect(page.count).toBe(5);
    expect(page.results.every((row) => row.client_id === fixture.a.clientId)).toBe(true);
    const byEmail = new Map(page.results.map((row) => [row.email, row]));
    expect(byEmail.get(enrolledEmail)).toEqual({
      user_id: expect.any(Number),
      name: "Erin Enrolled",
      email: enrolledEmail,
      role: "staff",
      client_id: fixture.a.clientId,
      client_name: expect.stringMatching(/^Client a /),
      active: true,
      email_proven: true,
      totp: true,
      recovery_codes_left: 10,
      passkeys: 1,
      second_factor_required: false,
      last_sign_in: expect.any(String),
      // Confirming the app, then adding the passkey, each ended the other sessions and opened a fresh one.
      open_sessions: 1,
    });
    expect(byEmail.get(invitedEmail)).toMatchObject({
      role: "owner",
      email_proven: false,
      totp: false,
      recovery_codes_left: 0,
      last_sign_in: null,
      open_sessions: 0,
    });
    expect(byEmail.get(disabledEmail)).toMatchObject({ role: "owner", active: false });
    const roles = page.results.map((row) => row.role).sort();
    expect(roles).toEqual(["owner", "owner", "owner", "staff", "staff"]);
    // The fixture's owner signed in (its token opened a session).
    const fixtureOwner = page.results.find((row) => row.email.startsWith("owner-a-"));
    expect(fixtureOwner).toMatchObject({ open_sessions: 1, last_sign_in: expect.any(String) });
  });

  it("pages and orders on the server", async () => {
    const first = await reviewOf(fixture.a.ownerToken, { limit: 2, ordering: "-email" });
    expect(first.count).toBe(5);
    expect(first.results).toHaveLength(2);
    const all = await reviewOf(fixture.a.ownerToken, { ordering: "-email" });
    const emails = all.results.map((row) => row.email);
    expect(emails).toEqual([...emails].sort().reverse());
    expect(first.results.map((row) => row.email)).toEqual(emails.slice(0, 2));
    const second = await reviewOf(fixture.a.ownerToken, { limit: 2, offset: 2, ordering: "-email" });
    expect(second.results.map((row) => row.email)).toEqual(emails.slice(2, 4));
    const bad = await owner().get("/api/access-review/", { ordering: "password" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ ordering: [expect.stringContaining("Unknown ordering field: password")] });
  });

  it("keeps an owner to their own client; staff and users of no client are refused", async () => {
    expect((await owner().get("/api/access-review/", { client_id: fixture.b.clientId })).status).toBe(404);
    expect((await owner().get("/api/access-review/", { client_id: fixture.a.clientId })).status).toBe(200);
    const staff = await testApp.client(fixture.a.staffToken).get("/api/access-review/");
    expect(staff.status).toBe(403);
    expect(staff.body).toEqual({
      detail: "Only the client's owners and the provider's admins read the access review.",
    });
    expect((await testApp.client(fixture.unattachedToken).get("/api/access-review/")).status).toBe(403);
    expect((await testApp.client(fixture.a.staffToken).get("/api/access-review/reviews/")).status).toBe(403);
    expect((await owner().get("/api/access-review/reviews/", { client_id: fixture.b.clientId })).status).toBe(
      404,
    );
  });

  it("shows a provider admin any client, or provider-wide the admins and every client's users", async () => {
    const clientB = await reviewOf(fixture.adminToken, { client_id: fixture.b.clientId });
    expect(clientB.count).toBe(2);
    expect(clientB.results.map((row) => row.role).sort()).toEqual(["owner", "staff"]);
    const wide = await reviewOf(fixture.adminToken, { limit: 5000 });
    const emails = wide.results.map((row) => row.email);
    expect(emails).toEqual(
      expect.arrayContaining([enrolledEmail, ...clientB.results.map((row) => row.email)]),
    );
    const admins = wide.results.filter((row) => row.role === "admin");
    expect(admins.length).toBeGreaterThan(0);
    expect(admins.every((row) => row.client_id === null)).toBe(true);
    // Admins (no client) first by default; users of no client (not yet attached) are nobody's.
    expect(wide.results[0]?.role).toBe("admin");
    expect(emails.some((email) => email.startsWith("nobody-"))).toBe(false);
    expect(
      (await testApp.client(fixture.adminToken).get("/api/access-review/", { client_id: 999_999 })).status,
    ).toBe(404);
  });
});

describe("the access review CSV", () => {
  it("is named and headed with the review's business date, one line per user", async () => {
    const answer = await owner().get("/api/access-review/", { format: "csv" });
    expect(answer.status).toBe(200);
    const today = businessToday();
    expect(answer.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(answer.headers.get("content-disposition")).toContain(
      `filename="access-review-client-${fixture.a.clientId}-${today}.csv"`,
    );
    const lines = answer.text.trimEnd().split("\r\n");
    expect(lines[0]).toMatch(
      new RegExp(`^Access review,${today},Client a .* \\(client ${fixture.a.clientId}\\)$`),
    );
    expect(lines[1]).toBe(
      "user_id,name,email,role,client_id,client_name,active,email_proven,totp,recovery_codes_left,passkeys,second_factor_required,last_sign_in,open_sessions",
    );
    expect(lines).toHaveLength(2 + 5);
    const enrolled = lines.find((line) => line.includes(enrolledEmail));
    expect(enrolled).toMatch(/,staff,\d+,Client a [^,]*,yes,yes,yes,10,1,no,\d{4}-\d\d-\d\dT[^,]+,1$/);
    expect(
      (await testApp.client(fixture.a.staffToken).get("/api/access-review/", { format: "csv" })).status,
    ).toBe(403);
  });
});

const trailRow = z.object({ client_id: dbInt, actor_label: dbText, record_id: dbText, changes: dbJson });

describe("a recorded review", () => {
  it("keeps who, when, the note and the counts, lists it, and leaves a trail row with values", async () => {
    const note = "Checked every user; the invitation is expected, the disabled owner left in May.";
    const answer = await owner().post("/api/access-review/reviews/", { note: `  ${note}  ` });
    expect(answer.status).toBe(201);
    const review = answer.body as AccessReviewRecord;
    expect(review).toEqual({
      id: expect.any(Number),
      client_id: fixture.a.clientId,
      reviewed_at: expect.any(String),
      review_date: businessToday(),
      reviewer_user_id: expect.any(Number),
      reviewer: expect.stringMatching(/^owner-a-/),
      note,
      users_count: 5,
      active_users_count: 4,
    });
    const listed = await owner().get("/api/access-review/reviews/");
    expect(listed.body).toEqual({ count: 1, results: [review] });
    const rows = await queryRows(
      testApp.db,
      sql`select client_id, actor_label, record_id, changes from audit_events
          where action = 'access_review.record' and record_id = ${String(review.id)}`,
      trailRow,
    );
    expect(rows).toEqual([
      {
        client_id: fixture.a.clientId,
        actor_label: review.reviewer,
        record_id: String(review.id),
        changes: expect.arrayContaining([
          ["note", null, note],
          ["users_count", null, "5"],
          ["review_date", null, businessToday()],
        ]),
      },
    ]);
  });

  it("asks for a note of at most 1000 characters; staff and other clients are refused", async () => {
    const empty = await owner().post("/api/access-review/reviews/", { note: "   " });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ note: ["Say what you checked (a note is required)."] });
    const missing = await owner().post("/api/access-review/reviews/", {});
    expect(missing.status).toBe(400);
    expect(missing.body).toHaveProperty("note");
    const long = await owner().post("/api/access-review/reviews/", { note: "x".repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ note: ["Keep the note to 1000 characters or fewer."] });
    expect((await owner().post("/api/access-review/reviews/", { note: "x".repeat(1000) })).status).toBe(201);
    const staff = await testApp
      .client(fixture.a.staffToken)
      .post("/api/access-review/reviews/", { note: "me" });
    expect(staff.status).toBe(403);
    const foreign = await owner().post("/api/access-review/reviews/", {
      note: "not mine",
      client_id: fixture.b.clientId,
    });
    expect(foreign.status).toBe(404);
  });

  it("is provider-wide for an admin without client_id, kept apart from the clients' reviews", async () => {
    const admin = testApp.client(fixture.adminToken);
    const answer = await admin.post("/api/access-review/reviews/", { note: "Quarterly provider review." });
    expect(answer.status).toBe(201);
    const review = answer.body as AccessReviewRecord;
    expect(review.client_id).toBeNull();
    expect(review.users_count).toBeGreaterThanOrEqual(8);
    const wide = (await admin.get("/api/access-review/reviews/")).body as Page<AccessReviewRecord>;
    expect(wide.results.map((row) => row.id)).toContain(review.id);
    const clientA = (await admin.get("/api/access-review/reviews/", { client_id: fixture.a.clientId }))
      .body as Page<AccessReviewRecord>;
    expect(clientA.results.map((row) => row.id)).not.toContain(review.id);
    expect(clientA.count).toBe(2);
    const [row] = await queryRows(
      testApp.db,
      sql`select client_id, actor_label, record_id, changes from audit_events
          where action = 'access_review.record' and record_id = ${String(review.id)}`,
      trailRow,
    );
    expect(row).toMatchObject({
      client_id: 0,
      changes: expect.arrayContaining([["scope", null, "Provider-wide"]]),
    });
  });
});
