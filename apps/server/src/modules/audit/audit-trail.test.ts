import { sql } from "drizzle-orm";
import type { AuditEvent } from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import {
  code,
  customerIds,
  enter,
  fixture,
  staff,
  testApp,
  useTransactionWorld,
} from "../../test-support/transaction-world.js";
import { runAuditDoctor } from "./audit-doctor.js";
import { verifyAuditTrail } from "./verify-audit.js";

// Issue 39: who did what, from where, and what it was before; a trail that cannot be rewritten.
useTransactionWorld();

type AuditPage = { count: number; results: AuditEvent[] };

const owner = () => testApp.client(fixture.a.ownerToken);
const admin = () => testApp.client(fixture.adminToken);

async function trail(query: Record<string, string | number>, client = owner()): Promise<AuditPage> {
  const response = await client.get("/api/audit/", query);
  expect(response.status).toBe(200);
  return response.body as AuditPage;
}

const change = (event: AuditEvent | undefined, field: string) =>
  event?.changes.find((item) => item.field === field);

/** Runs SQL as a database owner would, past the append-only trigger. */
async function asDatabaseOwner(statement: ReturnType<typeof sql>): Promise<void> {
  await testApp.db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_events disable trigger audit_events_no_change`);
    await tx.execute(statement);
    await tx.execute(sql`alter table audit_events enable trigger audit_events_no_change`);
  });
}

/** The owner edits a customer's fields through the API; answers the customer as it was. */
async function editCustomer(id: number, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const before = (await owner().get(`/api/customers/${id}/`)).body as Record<string, unknown>;
  const base = {
    first_name: "Pat",
    last_name: "Ledger",
    address1: "1 Congress Ave",
    city: "Austin",
    state: "TX",
    zip: "78701",
  };
  const edited = await owner().request("PUT", `/api/customers/${id}/`, {
    body: { ...base, ...fields },
    headers: { "user-agent": "AuditTest/1.0" },
  });
  expect(edited.body).toMatchObject({ id });
  return before;
}

describe("the audit trail", () => {
  it("records who changed a customer, from where, and each field before and after", async () => {
    const id = customerIds[0]!;
    const before = await editCustomer(id, { first_name: "Audited", city: "Round Rock" });
    const page = await trail({ record_kind: "customer", record_id: String(id) });
    const event = page.results[0];
    expect(event).toMatchObject({
      client_id: fixture.a.clientId,
      actor_kind: "user",
      action: "customer.update",
      record_kind: "customer",
      record_id: String(id),
      customer_id: id,
      address: "127.0.0.1",
      user_agent: "AuditTest/1.0",
      reason: null,
    });
    expect(event?.actor).toMatch(/@/);
    expect(change(event, "first_name")).toEqual({
      field: "first_name",
      before: before.first_name,
      after: "Audited",
    });
    expect(change(event, "city")?.after).toBe("Round Rock");
    // Unchanged fields are not listed.
    expect(change(event, "customer_no")).toBeUndefined();
  });

  it("keeps a deleted ledger entry readable, amounts to the cent", async () => {
    const customer = customerIds[1]!;
    const entry = await enter({ customer, code: code.charge, rate: "12.5", description: "Hedge trim" });
    expect((await staff.delete(`/api/transactions/${entry.id}/`)).status).toBe(204);
    const page = await trail({ record_kind: "ledger_entry", record_id: String(entry.id) });
    expect(page.results.map((event) => event.action)).toEqual(["ledger_entry.delete", "ledger_entry.post"]);
    expect(change(page.results[1], "amount")).toEqual({ field: "amount", before: null, after: "12.50" });
    const event = page.results[0];
    expect(event).toMatchObject({ action: "ledger_entry.delete", customer_id: customer });
    expect(change(event, "amount")).toEqual({ field: "amount", before: "12.50", after: null });
    expect(change(event, "description")).toEqual({ field: "description", before: "Hedge trim", after: null });
  });

  it("records users added, changed and deleted; a password shows only that it changed", async () => {
    const created = await owner().post("/api/users/", {
      firstName: "Ada",
      lastName: "Trail",
      email: "ada.trail@example.com",
      isStaff: true,
    });
    const id = (created.body as { id: number }).id;
    await owner().put(`/api/users/${id}/`, {
      firstName: "Ada",
      lastName: "Trail-Smith",
      email: "ada.trail@example.com",
      isStaff: true,
    });
    expect((await owner().delete(`/api/users/${id}/`)).status).toBe(204);
    const page = await trail({ record_kind: "user", record_id: String(id), ordering: "seq" });
    expect(page.results.map((event) => event.action)).toEqual([
      "user.invite",
      "user.issue_link",
      "user.update",
      "user.delete",
    ]);
    expect(change(page.results[2], "last_name")).toEqual({
      field: "last_name",
      before: "Trail",
      after: "Trail-Smith",
    });
    // The deleted user stays readable.
    expect(change(page.results[3], "email")).toEqual({
      field: "email",
      before: "ada.trail@example.com",
      after: null,
    });
    expect(
      page.results.flatMap((event) => event.changes).some((item) => item.field === "password_hash"),
    ).toBe(false);
  });

  it("lets owners read their own client's trail and admins every client's; staff not at all", async () => {
    await editCustomer(customerIds[2]!, { city: "Pflugerville" });
    expect((await staff.get("/api/audit/")).status).toBe(403);
    const otherOwner = testApp.client(fixture.b.ownerToken);
    expect((await otherOwner.get("/api/audit/", { client_id: fixture.a.clientId })).status).toBe(404);
    const own = await trail({}, otherOwner);
    expect(own.results.every((event) => event.client_id === fixture.b.clientId)).toBe(true);
    const everything = await trail({ limit: 5000 }, admin());
    expect(everything.results.some((event) => event.client_id === fixture.a.clientId)).toBe(true);
    const filtered = await trail({ client_id: fixture.a.clientId, action: "customer.update" }, admin());
    expect(filtered.count).toBeGreaterThan(0);
    expect(filtered.results.every((event) => event.action === "customer.update")).toBe(true);
    expect((await admin().get("/api/audit/", { ordering: "colour" })).status).toBe(400);
  });

  it("records an invoice's life, its deletion included", async () => {
    const created = await staff.post("/api/invoices/", { customer: customerIds[4] });
    const id = (created.body as { id: number }).id;
    expect((await staff.post(`/api/invoices/${id}/close/`)).status).toBe(200);
    expect((await staff.delete(`/api/invoices/${id}/`)).status).toBe(204);
    const page = await trail({ record_kind: "invoice", record_id: String(id), ordering: "seq" });
    expect(page.results.map((event) => event.action)).toEqual([
      "invoice.create",
      "invoice.close",
      "invoice.delete",
    ]);
    expect(change(page.results[1], "invoice_status")).toEqual({
      field: "invoice_status",
      before: "open",
      after: "closed",
    });
    expect(change(page.results[2], "invoice_num")?.after).toBeNull();
  });

  it("downloads every matching change as CSV, one line per field", async () => {
    await editCustomer(customerIds[5]!, { city: "Leander" });
    const response = await owner().get("/api/audit/", { customer_id: customerIds[5]!, format: "csv" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const lines = response.text.trim().split("\r\n");
    expect(lines[0]).toBe(
      "at,client_id,seq,actor,actor_kind,address,user_agent,action,record_kind,record_id,customer_id,reason,field,before,after",
    );
    expect(lines.some((line) => line.includes("customer.update") && line.endsWith(",city,,Leander"))).toBe(
      true,
    );
  });

  it("cannot be updated, deleted or truncated, whoever asks", async () => {
    for (const statement of [
      sql`update audit_events set reason = 'rewritten'`,
      sql`delete from audit_events`,
      sql`truncate audit_events`,
    ]) {
      await expect(testApp.db.execute(statement)).rejects.toThrow();
    }
  });

  it("is proved by doctor --audit, which finds a changed row and a removed one", async () => {
    for (const city of ["Austin", "Buda", "Kyle", "Manor"]) await editCustomer(customerIds[3]!, { city });
    expect(await runAuditDoctor(testApp.db, undefined)).toMatchObject({ ok: true });
    const clean = await verifyAuditTrail(testApp.db, fixture.a.clientId);
    expect(clean.mismatches).toEqual([]);
    expect(clean.rows).toBeGreaterThan(3);

    await asDatabaseOwner(
      sql`update audit_events set changes = '[]'::jsonb where client_id = ${fixture.a.clientId} and seq = 2`,
    );
    await asDatabaseOwner(sql`delete from audit_events where client_id = ${fixture.a.clientId} and seq = 3`);
    const broken = await verifyAuditTrail(testApp.db, fixture.a.clientId);
    expect(broken.mismatches).toEqual([
      `client ${String(fixture.a.clientId)}'s chain: row 2 was changed after it was written`,
      `client ${String(fixture.a.clientId)}'s chain: row 3 missing (removed)`,
      `client ${String(fixture.a.clientId)}'s chain: row 4 does not follow the row before it`,
    ]);
    const doctor = await runAuditDoctor(testApp.db, undefined);
    expect(doctor.ok).toBe(false);
    expect(doctor.text).toContain("row 2 was changed after it was written");
  });

  it("keeps the reason given for a deletion, an undo's kind of act, and a provider-only change", async () => {
    const entry = await enter({
      customer: customerIds[2]!,
      code: code.charge,
      rate: "7.25",
      description: "Oops",
    });
    const removed = await staff.request("DELETE", `/api/transactions/${entry.id}/`, {
      query: { reason: "  Posted to the wrong customer  " },
    });
    expect(removed.status).toBe(204);
    const deletion = (await trail({ record_kind: "ledger_entry", record_id: String(entry.id) })).results[0];
    expect(deletion).toMatchObject({ action: "ledger_entry.delete", reason: "Posted to the wrong customer" });

    const clientId = fixture.a.clientId;
    const current = (await admin().get(`/api/clients/${clientId}/`)).body as Record<string, unknown>;
    const saved = await admin().put(`/api/clients/${clientId}/`, {
      ...current,
      day_charge_30_day: "6.50",
      change_reason: "The client asked by phone",
    });
    expect(saved.status, saved.text).toBe(200);
    const [change] = (await trail({ record_kind: "client", record_id: String(clientId) }, admin())).results;
    expect(change).toMatchObject({ action: "client.update", reason: "The client asked by phone" });
    expect(change?.changes.map((item) => item.field)).toContain("day_charge_30_day");
    // A reason is at most 500 characters, said in the API's words.
    const tooLong = await staff.request("DELETE", `/api/transactions/${entry.id}/`, {
      query: { reason: "x".repeat(501) },
    });
    expect(tooLong).toMatchObject({
      status: 400,
      body: { reason: ["Keep the reason under 500 characters."] },
    });
  });
});
