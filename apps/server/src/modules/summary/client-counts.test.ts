import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { codes, customers } from "../../db/tables.js";
import type { ApiClient } from "../../test-support/test-app.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import { postTransaction } from "../transactions/post-transaction.js";

// The lists' unfiltered counts (customers active and archived, the whole ledger's entries) come from
// each process's kept counts, refreshed from the customer_changes log: after every kind of change,
// including a write the serving process never saw (made through the database directly, as another
// API process or a worker would), the next page's count equals a count of the rows.

useTenantApp();

type Counts = { active: number; archived: number; entries: number };
const countsRowSchema = z.object({ active: dbInt, archived: dbInt, entries: dbInt });

async function listCounts(client: ApiClient): Promise<Counts> {
  const count = async (path: string, query: Record<string, string | number>) => {
    const response = await client.get(path, { limit: 1, ...query });
    expect(response.status, response.text).toBe(200);
    return (response.body as { count: number }).count;
  };
  return {
    active: await count("/api/customers/", {}),
    archived: await count("/api/customers/", { includeOnlyArchived: "true" }),
    entries: await count("/api/transactions/", {}),
  };
}

async function countedRows(clientId: number): Promise<Counts> {
  const [row] = await queryRows(
    testApp.db,
    sql`select (select count(*) from customers where client_id = ${clientId} and not deleted) as active,
               (select count(*) from customers where client_id = ${clientId} and deleted) as archived,
               (select count(*) from transactions where client_id = ${clientId}) as entries`,
    countsRowSchema,
  );
  return { active: row!.active, archived: row!.archived, entries: row!.entries };
}

describe("the lists' unfiltered counts", () => {
  it("equal a count of the rows after every change, whoever made it", async () => {
    const clientId = fixture.a.clientId;
    const owner = testApp.client(fixture.a.ownerToken);
    const [charge, payment] = await testApp.db
      .insert(codes)
      .values([
        { clientId, code: 10, description: "Service", codeType: "charge" },
        { clientId, code: 20, description: "Payment", codeType: "payment" },
      ])
      .returning();
    const added = async (name: string) => {
      const response = await owner.post("/api/customers/", {
        address1: "1 Main St",
        city: "Austin",
        state: "TX",
        zip: "73301",
        first_name: name,
        last_name: "Counted",
      });
      expect(response.status, response.text).toBe(201);
      return (response.body as { id: number }).id;
    };
    const post = async (customer: number, code: number, rate: string) => {
      const response = await owner.post("/api/transactions/", { customer, code, rate, force: true });
      expect(response.status, response.text).toBe(201);
      return (response.body as { id: number }).id;
    };
    const expectCounted = async (step: string) =>
      expect(await listCounts(owner), step).toEqual(await countedRows(clientId));

    // Read once first, so every later count comes from a refresh of what the process keeps.
    await expectCounted("at the start");
    const first = await added("Ann");
    const second = await added("Ben");
    await expectCounted("after two customers are added");
    await post(first, charge!.id, "40.00");
    const paid = await post(second, charge!.id, "25.00");
    await expectCounted("after two postings");
    expect((await owner.delete(`/api/transactions/${paid}/`)).status).toBe(204);
    await expectCounted("after an entry is deleted");

    // Written through the database, not this process's routes: no request of it forgets anything.
    await postTransaction(
      testApp.db,
      { clientId },
      { customerId: first, codeId: charge!.id, description: "Elsewhere", rate: "5.00" },
    );
    await expectCounted("after a posting the serving process did not make");
    await testApp.db
      .insert(customers)
      .values({ clientId, customerNo: 9_001, customerName: "Loaded In Bulk" });
    await expectCounted("after a customer is inserted with no change noted");

    // Marked for deletion, then archived by the ledger when a payment brings it to zero.
    expect(
      (await owner.post(`/api/customers/${first}/delete-flag/`, { delete_flag: "D" })).status,
    ).toBeLessThan(300);
    await post(first, payment!.id, "45.00");
    await expectCounted("after a payment archives a customer at zero");
    expect((await owner.delete(`/api/customers/${second}/`)).status).toBe(204);
    await expectCounted("after a customer is archived");
    expect(await listCounts(owner)).toMatchObject({ archived: 2 });
  });
});
