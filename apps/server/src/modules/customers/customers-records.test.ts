import { describe, expect, it } from "vitest";
import {
  add,
  chargeCode,
  creditCode,
  owner,
  paymentCode,
  post,
  useCustomerWorld,
} from "../../test-support/customer-world.js";
import type { Customer, Page } from "../../test-support/customer-world.js";

useCustomerWorld();

describe("stored amounts and recurring charges", () => {
  it("validate descriptions and rates with the spec's messages", async () => {
    const customer = await add({ first_name: "Stored", last_name: "Amounts" });
    const stored = await owner.post("/api/storedamounts/", {
      customer: customer.id,
      storedCode: chargeCode,
      description: "d".repeat(61),
      rate: "-5",
    });
    expect(stored.body).toEqual({
      description: ["Description is too long. Please make sure it is under 60 characters."],
      rate: ["The rate contains invalid characters. Please use only digits and decimals."],
    });
    expect((await owner.post("/api/storedamounts/", { customer: customer.id })).body).toMatchObject({
      storedCode: ["Stored amounts must have a code and a rate."],
      rate: ["Stored amounts must have a code and a rate."],
    });
    const recurring = await owner.post("/api/autoamounts/", { customer: customer.id, description: "x" });
    expect(recurring.status).toBe(400);
    expect(Object.values(recurring.body as Record<string, string[]>).flat()).toContain(
      "Recurring charges must have a code, rate, start month, and end month.",
    );
    const saved = await owner.post("/api/storedamounts/", {
      customer: customer.id,
      storedCode: chargeCode,
      rate: "3.333",
      quantity: "3",
    });
    expect(saved.body).toMatchObject({ storedAmount: "10.00", rate: "3.33300", quantity: "3" });
    const id = (saved.body as { id: number }).id;
    const edited = await owner.put(`/api/storedamounts/${id}/`, {
      customer: customer.id,
      storedCode: chargeCode,
      rate: "2",
      quantity: "4",
    });
    expect(edited.body).toMatchObject({ storedAmount: "8.00" });
    expect((await owner.delete(`/api/storedamounts/${id}/`)).status).toBe(204);
  });
});

describe("archiving", () => {
  it("archives a customer with a zero balance, and unarchives it", async () => {
    const customer = await add({ first_name: "Zero", last_name: "Balance" });
    expect((await owner.delete(`/api/customers/${customer.id}/`)).status).toBe(204);
    const archived = (await owner.get("/api/customers/", { includeOnlyArchived: "true" })).body as Page;
    expect(archived.results.map((row) => row.id)).toContain(customer.id);
    expect(((await owner.get("/api/customers/")).body as Page).results.map((row) => row.id)).not.toContain(
      customer.id,
    );
    const restored = await owner.post(`/api/customers/${customer.id}/undelete-now/`);
    expect(restored.body).toMatchObject({ archive_state: "active", deleted: false });
  });

  it("marks a customer with a balance, refuses its charges, and archives it when the balance reaches zero", async () => {
    const customer = await add({ first_name: "Owes", last_name: "Money" });
    await post(customer.id, chargeCode, "80.00");
    const refused = await owner.delete(`/api/customers/${customer.id}/`);
    expect(refused).toMatchObject({
      status: 400,
      body: {
        non_field_errors: [
          "This customer has a balance of $80.00. Choose to archive it when the balance reaches zero instead.",
        ],
      },
    });
    const marked = await owner.post(`/api/customers/${customer.id}/delete-flag/`, { delete_flag: "D" });
    expect(marked.body).toMatchObject({ archive_state: "delete-when-zero", delete_flag: "D" });
    const pending = (await owner.get("/api/customers/", { includeOnlyPendingArchived: "true" })).body as Page;
    expect(pending.results.map((row) => row.id)).toEqual([customer.id]);
    await expect(post(customer.id, chargeCode, "5.00")).rejects.toMatchObject({
      body: { non_field_errors: ["Customer is marked for deletion and cannot accept charge transactions."] },
    });
    await post(customer.id, creditCode, "30.00");
    expect(((await owner.get(`/api/customers/${customer.id}/`)).body as Customer).deleted).toBe(false);
    await post(customer.id, paymentCode, "50.00");
    const after = (await owner.get(`/api/customers/${customer.id}/`)).body as Customer;
    expect(after).toMatchObject({ deleted: true, archive_state: "archived", balance: "0.00" });
    // Unarchiving starts the customer afresh: its history is not kept.
    await owner.post(`/api/customers/${customer.id}/undelete-now/`);
    const summary = (await owner.get(`/api/summary-data/customer/${customer.id}`)).body as Record<
      string,
      unknown
    >;
    expect(summary).toMatchObject({ balance: "0.00", last_pay_date_1: null, ytdCharges: "0.00" });
  });

  it("offers in each record's actions only what the server accepts: no flag, nothing to remove (issue 41.6)", async () => {
    const customer = await add({ first_name: "Never", last_name: "Flagged" });
    await post(customer.id, chargeCode, "12.00");
    const actionsOf = async (filters: Record<string, string> = {}) => {
      const record = (await owner.get(`/api/customers/${customer.id}/`)).body as Customer;
      const listed = (
        (await owner.get("/api/customers/", { query: "Never Flagged", ...filters })).body as Page
      ).results;
      expect(listed.find((row) => row.id === customer.id)?.actions).toEqual(record.actions);
      return record.actions;
    };
    // A balance and no flag: it can be marked, not archived now, and there is no flag to remove.
    expect(await actionsOf()).toEqual(["mark_for_archive"]);
    const removed = await owner.post(`/api/customers/${customer.id}/delete-flag/`, { delete_flag: null });
    expect(removed).toMatchObject({
      status: 400,
      body: { non_field_errors: ["This customer has no archive flag to remove."] },
    });
    const marked = await owner.post(`/api/customers/${customer.id}/delete-flag/`, { delete_flag: "S" });
    expect(marked.body).toMatchObject({ actions: ["mark_for_archive", "remove_archive_flag"] });
    expect(await actionsOf()).toEqual(["mark_for_archive", "remove_archive_flag"]);
    await post(customer.id, paymentCode, "12.00");
    // Paid to zero: archived by the flag; it can only be unarchived.
    expect(await actionsOf({ includeOnlyArchived: "true" })).toEqual(["unarchive"]);
    const zero = await add({ first_name: "Zero", last_name: "Actions" });
    expect(zero.actions).toEqual(["archive", "mark_for_archive"]);
  });

  it("keeps billing flags distinct and refuses the two exclusive filters together", async () => {
    const customer = await add({ first_name: "Keep", last_name: "Billing" });
    await post(customer.id, chargeCode, "10.00");
    const marked = await owner.post(`/api/customers/${customer.id}/delete-flag/`, { delete_flag: "S" });
    expect(marked.body).toMatchObject({ archive_state: "delete-when-zero-keep-billing" });
    const cleared = await owner.post(`/api/customers/${customer.id}/delete-flag/`, { delete_flag: null });
    expect(cleared.body).toMatchObject({ archive_state: "active", delete_flag: null });
    expect(
      await owner.get("/api/customers/", { includeOnlyArchived: "true", includeOnlyPendingArchived: "true" }),
    ).toMatchObject({
      status: 400,
      body: { non_field_errors: ["Archived-only and pending-archive-only filters cannot be used together."] },
    });
  });
});
