import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { clients } from "../../db/tables.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import { openSecret } from "../secrets/secret-box.js";

type Client = Record<string, unknown> & { id: number; client_no: number; client_name: string };

useTenantApp();

async function editorBody(id: number): Promise<Record<string, unknown>> {
  const current = (await testApp.client(fixture.adminToken).get(`/api/clients/${id}/`)).body as Record<
    string,
    unknown
  >;
  const { id: _id, has_blue_pay_key: _key, created_at: _created, updated_at: _updated, ...body } = current;
  return body;
}

describe("adding and deleting clients", () => {
  it("lets admins add a client by name alone, numbering it after the highest", async () => {
    const admin = testApp.client(fixture.adminToken);
    const created = await admin.post("/api/clients/", { client_name: "Maple Street Plumbing" });
    expect(created.status).toBe(201);
    const client = created.body as Client;
    const numbers = (
      (await admin.get("/api/clients/", { limit: 100 })).body as { results: Client[] }
    ).results.map((row) => row.client_no);
    expect(client.client_no).toBe(Math.max(...numbers));
    expect(client).toMatchObject({
      status_code: "A",
      normal_cycle: 1,
      has_blue_pay_key: false,
      emailed_bill_rate: "0.00000",
    });
    expect((await admin.post("/api/clients/", { client_name: "AB" })).body).toEqual({
      client_name: ["Ensure this field has at least 3 characters."],
    });
    expect((await admin.post("/api/clients/", {})).body).toEqual({
      client_name: ["This field is required."],
    });
    expect(
      (await admin.post("/api/clients/", { client_name: "Dup", client_no: client.client_no })).body,
    ).toEqual({
      client_no: ["A client with this number already exists."],
    });
  });

  it("refuses adding and deleting to owners, and deletes everything a client owns", async () => {
    const owner = testApp.client(fixture.a.ownerToken);
    expect((await owner.post("/api/clients/", { client_name: "Sneaky Co" })).status).toBe(403);
    expect((await owner.delete(`/api/clients/${fixture.a.clientId}/`)).status).toBe(403);
    const admin = testApp.client(fixture.adminToken);
    const doomed = (await admin.post("/api/clients/", { client_name: "Short Lived LLC" })).body as Client;
    await admin.post(
      "/api/codes/",
      { code: 1, description: "x", code_type: "charge" },
      { client_id: doomed.id },
    );
    expect((await admin.delete(`/api/clients/${doomed.id}/`)).status).toBe(204);
    expect((await admin.get(`/api/clients/${doomed.id}/`)).status).toBe(404);
    const [leftovers] = await queryRows(
      testApp.db,
      sql`select count(*)::int as total from codes where client_id = ${doomed.id}`,
      z.object({ total: z.number() }),
    );
    expect(leftovers?.total).toBe(0);
  });
});

describe("the client editor's save", () => {
  it("saves every field with the spec's validation", async () => {
    const admin = testApp.client(fixture.adminToken);
    const body = {
      ...(await editorBody(fixture.a.clientId)),
      client_name: "Client A Renamed",
      address2: "Suite 5",
      bus_phone: "(512)-555-0100",
      alternate_zip: "78701",
      alternate_state: "tx",
      terms_message: "Net 30",
      bill_message_line_1: "Thank you!",
      status_code: "M",
      inactive_flag: "C",
      normal_cycle: 99,
      fiscal_year_reset_month: 7,
      finance_flag: "2",
      sixtyDayRateOrPercent: "percent",
      day_finance_rate_60_day: "1.5",
      day_charge_30_day: "5",
      emailed_bill_rate: "0.45",
      number_mailed_bills: 120,
    };
    const saved = await admin.put(`/api/clients/${fixture.a.clientId}/`, body);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      client_name: "Client A Renamed",
      alternate_state: "TX",
      normal_cycle: 99,
      sixtyDayRateOrPercent: "percent",
      day_finance_rate_60_day: "1.50000",
      day_charge_30_day: "5.00",
      emailed_bill_rate: "0.45000",
      number_mailed_bills: 120,
    });

    const invalid = await admin.put(`/api/clients/${fixture.a.clientId}/`, {
      ...body,
      address1: "",
      city: "",
      state: "",
      zip: "1234",
      alternate_zip: "12a45",
      bus_phone: "512-555-0100",
      terms_message: "x".repeat(21),
      normal_cycle: 28,
      fiscal_year_reset_month: 13,
      status_code: "Z",
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      address1: ["Address line 1 required"],
      city: ["City required"],
      state: ["State required"],
      zip: ["Must be 5 digits"],
      alternate_zip: ["Must be 5 digits"],
      bus_phone: ["512-555-0100 is not a valid phone number"],
      terms_message: ["Terms max length 20 characters"],
      normal_cycle: ["Cycle day must be 1 to 27, or 99."],
      fiscal_year_reset_month: ["Ensure this value is less than or equal to 12."],
      status_code: ['"Z" is not a valid choice.'],
    });
  });

  it("refuses an owner's change to the rates and the number, and refuses staff", async () => {
    // Every field is walked in client-field-permissions.test.ts.
    const owner = testApp.client(fixture.b.ownerToken);
    const before = await editorBody(fixture.b.clientId);
    const refused = await owner.put(`/api/clients/${fixture.b.clientId}/`, {
      ...before,
      info_message: "Owner was here",
      client_no: 424242,
      mailed_bill_rate: "99.99",
      number_pulled_bills: 5,
    });
    expect(refused).toMatchObject({
      status: 403,
      body: {
        detail:
          "Only the provider's administrators can change these fields: client_no, mailed_bill_rate, number_pulled_bills.",
      },
    });
    const saved = await owner.put(`/api/clients/${fixture.b.clientId}/`, {
      ...before,
      info_message: "Owner was here",
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      info_message: "Owner was here",
      client_no: before.client_no,
      mailed_bill_rate: before.mailed_bill_rate,
      number_pulled_bills: before.number_pulled_bills,
    });
    expect(
      (await testApp.client(fixture.b.staffToken).put(`/api/clients/${fixture.b.clientId}/`, before)).status,
    ).toBe(403);
    expect((await owner.put(`/api/clients/${fixture.a.clientId}/`, before)).status).toBe(404);
  });

  it("stores the gateway key encrypted, never returns it, and can replace or clear it", async () => {
    const admin = testApp.client(fixture.adminToken);
    const body = await editorBody(fixture.b.clientId);
    const saved = await admin.put(`/api/clients/${fixture.b.clientId}/`, {
      ...body,
      bluepay_account_id: "100200300",
      bluepay_secret_key: "super-secret-gateway-key",
    });
    expect(saved.body).toMatchObject({ has_blue_pay_key: true, bluepay_account_id: "100200300" });
    expect(saved.text).not.toContain("super-secret-gateway-key");
    const [row] = await testApp.db.select().from(clients).where(eq(clients.id, fixture.b.clientId));
    expect(row?.bluepaySecretKeyEncrypted).not.toContain("super-secret");
    expect(openSecret("test-secrets-key", row?.bluepaySecretKeyEncrypted ?? "")).toBe(
      "super-secret-gateway-key",
    );
    // Saving without a key keeps it; clearing removes it.
    expect((await admin.put(`/api/clients/${fixture.b.clientId}/`, body)).body).toMatchObject({
      has_blue_pay_key: true,
    });
    expect(
      (await admin.put(`/api/clients/${fixture.b.clientId}/`, { ...body, clear_blue_pay_key: true })).body,
    ).toMatchObject({ has_blue_pay_key: false });
  });

  it("refuses moving the cycle day later in the month once the cycle has run", async () => {
    const admin = testApp.client(fixture.adminToken);
    const today = new Date().getUTCDate();
    await testApp.db
      .update(clients)
      .set({ cycleRan: true, normalCycle: 1 })
      .where(eq(clients.id, fixture.a.clientId));
    const body = await editorBody(fixture.a.clientId);
    if (today < 27) {
      const later = await admin.put(`/api/clients/${fixture.a.clientId}/`, {
        ...body,
        normal_cycle: today + 1,
      });
      expect(later).toMatchObject({
        status: 400,
        body: {
          normal_cycle: [
            "You cannot change the cycle processing day to a later date in the same month as it would cause double billing.",
          ],
        },
      });
    }
    expect(
      (await admin.put(`/api/clients/${fixture.a.clientId}/`, { ...body, normal_cycle: 99 })).status,
    ).toBe(200);
    await testApp.db.update(clients).set({ cycleRan: false }).where(eq(clients.id, fixture.a.clientId));
    expect(
      (await admin.put(`/api/clients/${fixture.a.clientId}/`, { ...body, normal_cycle: 27 })).status,
    ).toBe(200);
  });
});
