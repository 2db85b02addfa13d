import { PROVIDER_ONLY_CLIENT_FIELDS, clientUpdateSchema } from "@cyclebill/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient, TenantFixture, TestApp } from "../../test-support/test-app.js";
import { startTenantApp } from "../../test-support/tenant-app.js";

// Who may write each client field (issue 30, point 2): an owner could set the client's status from
// D (Disabled) back to A and edit the bulk pull fields. Every field of the editor is walked here
// for the owner, the staff and an admin.

let testApp: TestApp;
let fixture: TenantFixture;
let admin: ApiClient;

/** A valid value different from a new client's for every field the editor saves. */
const CHANGED: Record<string, unknown> = {
  client_name: "Renamed Lawn Co",
  client_no: 777_001,
  address1: "9 New Street",
  city: "Round Rock",
  state: "OK",
  zip: "78664",
  address2: "Suite 2",
  address3: "Building C",
  zip4: "1234",
  bus_phone: "(512)-555-0101",
  fax_number: "(512)-555-0102",
  cell_phone: "(512)-555-0103",
  home_phone: "(512)-555-0104",
  email: "owner@example.com",
  business_owner: "Pat Owner",
  primary_contact: "Sam Primary",
  alternate_contact: "Alex Alternate",
  bluepay_account_id: "100200399",
  bluepay_secret_key: "another-gateway-secret",
  clear_blue_pay_key: true,
  alternate_name: "Warehouse",
  alternate_address1: "1 Dock Road",
  alternate_address2: "Bay 4",
  alternate_address3: "Gate B",
  alternate_city: "Austin",
  alternate_state: "TX",
  alternate_zip: "78701",
  alternate_bus_phone: "(512)-555-0105",
  alternate_address_flag: "2",
  business_type: "Landscaping",
  sic_code: "0782",
  business_form: "LLC",
  license: "L-123",
  corporate_name: "Renamed Holdings",
  pull_duration: 3,
  pull_explanation: "2",
  terms_message: "Net 15",
  due_days: 15,
  info_message: "Call before visiting",
  bill_message_line_1: "Thank you",
  bill_message_line_2: "for your business",
  bill_message_line_3: "since 1999",
  bi_message: "Spring special",
  client_message: "Office closed Friday",
  normal_cycle: 99,
  client_start_date: "2024-02-03",
  permission_to_ref_date: "2024-02-04",
  status_code: "D",
  inactive_flag: "C",
  finance_flag: "3",
  thirtyDayRateOrPercent: "percent",
  sixtyDayRateOrPercent: "percent",
  ninetyDayRateOrPercent: "percent",
  finance_rate_30_day: "1.25",
  day_finance_rate_60_day: "1.5",
  day_finance_rate_90_day: "1.75",
  day_charge_30_day: "5.00",
  day_charge_60_day: "7.50",
  day_charge_90_day: "10.00",
  code_set: "B",
  fiscal_year_reset_month: 4,
  bill_criteria: "02",
  bill_fulfilment: "C",
  process_type: "03",
  represent_ach_returns: true,
  ach_return_fee: "25.00",
  require_second_factor: true,
  emailed_bill_rate: "0.12345",
  credit_card_bill_rate: "0.2",
  pulled_bill_rate: "0.3",
  mailed_bill_rate: "0.4",
  overflow_bill_rate: "0.5",
  discounts: "0.6",
  basic_fee: "9.99",
  account_rate: "0.7",
  number_emailed_bills: 7,
  number_credit_card_bills: 8,
  number_pulled_bills: 9,
  number_mailed_bills: 10,
  number_bill_overflows: 11,
  gateway_hash_type: "HMAC_SHA256",
};
const EDITOR_FIELDS = Object.keys(clientUpdateSchema.shape);
const WRITE_ONLY = new Set(["bluepay_secret_key", "clear_blue_pay_key"]);
const PROVIDER_ONLY = new Set<string>(PROVIDER_ONLY_CLIENT_FIELDS);

beforeAll(async () => {
  ({ testApp, fixture } = await startTenantApp());
  admin = testApp.client(fixture.adminToken);
});
afterAll(async () => testApp?.close());

type Client = Record<string, unknown>;

async function stored(clientId: number): Promise<Client> {
  return (await admin.get(`/api/clients/${clientId}/`)).body as Client;
}

/** The full body the editor sends: the stored client, the secret never among it. */
async function editorBody(clientId: number): Promise<Client> {
  const current = await stored(clientId);
  return Object.fromEntries(EDITOR_FIELDS.filter((field) => field in current).map((f) => [f, current[f]]));
}

/** Gives the client a gateway key, so that clearing it is a change. */
async function withKey(clientId: number): Promise<void> {
  const saved = await admin.put(`/api/clients/${clientId}/`, {
    ...(await editorBody(clientId)),
    bluepay_secret_key: "first-gateway-secret",
  });
  expect(saved.status, saved.text).toBe(200);
}

describe("who may write each client field", () => {
  it("has a changed value for every field the editor saves", () => {
    expect(EDITOR_FIELDS.filter((field) => !(field in CHANGED))).toEqual([]);
    // The one list names only real fields (gateway_hash_type arrives with the seal hash's issue).
    expect(
      PROVIDER_ONLY_CLIENT_FIELDS.filter((field) => !(field in CHANGED) && field !== "gateway_hash_type"),
    ).toEqual([]);
  });

  it("refuses an owner's change to each provider-only field with 403 naming it, and saves the rest", async () => {
    const owner = testApp.client(fixture.a.ownerToken);
    const clientId = fixture.a.clientId;
    const refused: string[] = [];
    const saved: string[] = [];
    for (const field of EDITOR_FIELDS) {
      if (field === "clear_blue_pay_key") await withKey(clientId);
      const before = await stored(clientId);
      const answer = await owner.put(`/api/clients/${clientId}/`, {
        ...(await editorBody(clientId)),
        [field]: CHANGED[field],
      });
      if (PROVIDER_ONLY.has(field)) {
        expect(answer.status, `${field}: ${answer.text}`).toBe(403);
        expect((answer.body as { detail: string }).detail, field).toContain(field);
        expect(await stored(clientId), field).toEqual(before);
        refused.push(field);
      } else {
        expect(answer.status, `${field}: ${answer.text}`).toBe(200);
        if (!WRITE_ONLY.has(field)) expect((await stored(clientId))[field], field).not.toEqual(before[field]);
        saved.push(field);
      }
    }
    expect(refused.length + saved.length).toBe(EDITOR_FIELDS.length);
    expect(refused).toContain("status_code");
    expect(refused).toContain("pull_duration");
    expect(saved).toContain("info_message");
  });

  it("lets an owner send the provider's decisions back unchanged", async () => {
    const clientId = fixture.b.clientId;
    const decided = await admin.put(`/api/clients/${clientId}/`, {
      ...(await editorBody(clientId)),
      status_code: "D",
      inactive_flag: "D",
      pull_duration: 6,
      pull_explanation: "3",
      emailed_bill_rate: "0.45",
      normal_cycle: 99,
    });
    expect(decided.status, decided.text).toBe(200);
    const owner = testApp.client(fixture.b.ownerToken);
    const body = await editorBody(clientId);
    const saved = await owner.put(`/api/clients/${clientId}/`, {
      ...body,
      emailed_bill_rate: "0.450",
      info_message: "Still here",
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ status_code: "D", inactive_flag: "D", pull_duration: 6 });
    const undo = await owner.put(`/api/clients/${clientId}/`, { ...body, status_code: "A" });
    expect(undo).toMatchObject({
      status: 403,
      body: { detail: "Only the provider's administrators can change status_code." },
    });
    const several = await owner.put(`/api/clients/${clientId}/`, {
      ...body,
      status_code: "A",
      pull_explanation: "0",
    });
    expect((several.body as { detail: string }).detail).toBe(
      "Only the provider's administrators can change these fields: status_code, pull_explanation.",
    );
    expect((await stored(clientId)).status_code).toBe("D");
  });

  it("keeps what an owner's save leaves out (the create defaults are not changes)", async () => {
    const clientId = fixture.b.clientId;
    const decided = await admin.put(`/api/clients/${clientId}/`, {
      ...(await editorBody(clientId)),
      status_code: "I",
      inactive_flag: "C",
      pull_duration: 4,
    });
    expect(decided.status, decided.text).toBe(200);
    const body = await editorBody(clientId);
    const { status_code: _status, inactive_flag: _inactive, pull_duration: _pull, ...withoutThem } = body;
    const saved = await testApp
      .client(fixture.b.ownerToken)
      .put(`/api/clients/${clientId}/`, { ...withoutThem, info_message: "Left them out" });
    expect(saved.status, saved.text).toBe(200);
    expect(await stored(clientId)).toMatchObject({
      status_code: "I",
      inactive_flag: "C",
      pull_duration: 4,
      info_message: "Left them out",
    });
  });

  it("refuses staff a change to any field", async () => {
    const staff = testApp.client(fixture.a.staffToken);
    const clientId = fixture.a.clientId;
    for (const field of EDITOR_FIELDS) {
      const answer = await staff.put(`/api/clients/${clientId}/`, {
        ...(await editorBody(clientId)),
        [field]: CHANGED[field],
      });
      expect(answer.status, `${field}: ${answer.text}`).toBe(403);
    }
  });

  it("lets an admin change every field", async () => {
    const clientId = (
      (await admin.post("/api/clients/", { client_name: "Walked By Admin" })).body as { id: number }
    ).id;
    const filled = await admin.put(`/api/clients/${clientId}/`, {
      ...(await editorBody(clientId)),
      address1: "1 Main Street",
      city: "Austin",
      state: "TX",
      zip: "78701",
    });
    expect(filled.status, filled.text).toBe(200);
    for (const field of EDITOR_FIELDS) {
      if (field === "clear_blue_pay_key") await withKey(clientId);
      const answer = await admin.put(`/api/clients/${clientId}/`, {
        ...(await editorBody(clientId)),
        [field]: CHANGED[field],
      });
      expect(answer.status, `${field}: ${answer.text}`).toBe(200);
    }
  });
});
