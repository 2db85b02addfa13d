import { describe, expect, it } from "vitest";
import { codes, customers, paymentAttempts } from "../../db/tables.js";
import { createStatement } from "../statements/create-statement.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";

// Deleting a client (issue 30, point 6): the delete used to remove a client with its whole books
// (ledger, statements, payments) by the database's cascades. Now a client holding any of them is
// refused with 409 naming what it holds, and only an empty one is deleted.

useTenantApp();

type Holdings = {
  customers: number;
  ledger_entries: number;
  statements: number;
  payments: number;
  deletable: boolean;
  refusal: string | null;
};

async function newClient(name: string): Promise<{ id: number; customer: number }> {
  const admin = testApp.client(fixture.adminToken);
  const created = await admin.post("/api/clients/", { client_name: name });
  expect(created.status, created.text).toBe(201);
  const id = (created.body as { id: number }).id;
  const [customer] = await testApp.db
    .insert(customers)
    .values({ clientId: id, customerNo: 1001, customerName: "Only Customer" })
    .returning({ id: customers.id });
  return { id, customer: customer!.id };
}

describe("deleting a client", () => {
  it("refuses a client with a ledger entry, a statement or a payment with 409 naming them", async () => {
    const admin = testApp.client(fixture.adminToken);
    const { id, customer } = await newClient("Greenway Books Kept");
    const [code] = await testApp.db
      .insert(codes)
      .values({ clientId: id, code: 100, description: "Mowing", codeType: "charge" })
      .returning();
    const posted = await admin.post(
      "/api/transactions/",
      { customer, code: code!.id, description: "Mow", rate: "40", force: true },
      { client_id: id },
    );
    expect(posted.status, posted.text).toBe(201);

    const refused = await admin.delete(`/api/clients/${id}/`);
    expect(refused).toMatchObject({
      status: 409,
      body: {
        detail:
          "Greenway Books Kept cannot be deleted: it holds 1 ledger entry. Make it inactive instead (status I InActive or D Disabled stops its billing).",
      },
    });

    await createStatement(
      testApp.db,
      { clientId: id },
      { customerId: customer, statementDate: "2026-01-31" },
    );
    await testApp.db.insert(paymentAttempts).values({
      clientId: id,
      customerId: customer,
      idempotencyKey: "deletion-test",
      kind: "sale",
      source: "staff",
      method: "card",
      amount: "10.00",
      status: "declined",
    });
    const holdings = await admin.get(`/api/clients/${id}/holdings/`);
    expect(holdings.body as Holdings).toEqual({
      customers: 1,
      ledger_entries: 1,
      statements: 1,
      payments: 1,
      deletable: false,
      refusal:
        "Greenway Books Kept cannot be deleted: it holds 1 ledger entry, 1 statement and 1 payment. Make it inactive instead (status I InActive or D Disabled stops its billing).",
    });
    expect((await admin.delete(`/api/clients/${id}/`)).status).toBe(409);
    // Nothing was removed; it can be made inactive instead.
    const kept = await admin.get(`/api/clients/${id}/`);
    expect(kept.status).toBe(200);
    expect((await admin.get("/api/transactions/", { client_id: id })).body).toMatchObject({ count: 1 });
  });

  it("deletes a client without books, with its customers", async () => {
    const admin = testApp.client(fixture.adminToken);
    const { id } = await newClient("Never Billed LLC");
    expect((await admin.get(`/api/clients/${id}/holdings/`)).body).toEqual({
      customers: 1,
      ledger_entries: 0,
      statements: 0,
      payments: 0,
      deletable: true,
      refusal: null,
    });
    expect((await admin.delete(`/api/clients/${id}/`)).status).toBe(204);
    expect((await admin.get(`/api/clients/${id}/`)).status).toBe(404);
    expect((await admin.get(`/api/clients/${id}/holdings/`)).status).toBe(404);
  });

  it("shows holdings to admins only", async () => {
    const owner = testApp.client(fixture.a.ownerToken);
    expect((await owner.get(`/api/clients/${fixture.a.clientId}/holdings/`)).status).toBe(403);
    expect(
      (await testApp.client(fixture.a.staffToken).get(`/api/clients/${fixture.a.clientId}/holdings/`)).status,
    ).toBe(403);
  });
});
