import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codes, customers } from "../../db/tables.js";
import { postEntries } from "../ledger/post-entries.js";
import type { ApiClient, TenantFixture, TestApp } from "../../test-support/test-app.js";
import { startTenantApp } from "../../test-support/tenant-app.js";

let testApp: TestApp;
let fixture: TenantFixture;
let owner: ApiClient;
let customerIds: number[];

type Plan = {
  id: number;
  routeplan_id: number;
  customer: number;
  stop: number;
  position: number;
  bill_indicator_flag: string;
  route: number;
};
type Group = { id: number; route_name: string; details?: Plan[] };

beforeAll(async () => {
  ({ testApp, fixture } = await startTenantApp());
  owner = testApp.client(fixture.a.ownerToken);
  const rows = await testApp.db
    .insert(customers)
    .values(
      Array.from({ length: 12 }, (_, index) => ({
        clientId: fixture.a.clientId,
        customerNo: 500 + index,
        customerName: `Member ${index}`,
      })),
    )
    .returning({ id: customers.id });
  customerIds = rows.map((row) => row.id);
  // Each member owes index + 0.50, posted through the ledger writer so balance and ledger agree.
  const [charge] = await testApp.db
    .insert(codes)
    .values({ clientId: fixture.a.clientId, code: 100, description: "Service", codeType: "charge" })
    .returning({ id: codes.id });
  await testApp.db.transaction((tx) =>
    postEntries(
      tx,
      { clientId: fixture.a.clientId },
      customerIds.map((customerId, index) => ({
        customerId,
        codeId: charge!.id,
        codeType: "charge" as const,
        description: "Service",
        rate: `${index}.50000`,
        quantity: "1.00000",
        serviceDate: "2026-01-15",
      })),
    ),
  );
});
afterAll(async () => testApp?.close());

async function newGroup(name: string): Promise<Group> {
  const response = await owner.post("/api/routes/", { route_name: name });
  expect(response.status).toBe(201);
  return response.body as Group;
}

async function members(groupId: number): Promise<Plan[]> {
  const group = (await owner.get(`/api/routes/${groupId}/`)).body as Group;
  return group.details ?? [];
}

function customersInOrder(plans: Plan[]): number[] {
  return plans.map((plan) => plan.customer);
}

function expectNoGaps(plans: Plan[]): void {
  expect(plans.map((plan) => plan.stop)).toEqual(plans.map((_, index) => index));
  expect(plans.map((plan) => plan.position)).toEqual(plans.map((_, index) => index + 1));
}

describe("group membership positions", () => {
  it("adds at the end by default, at a given stop, and clamps a stop past the end", async () => {
    const group = await newGroup("Positions");
    const [c0, c1, c2, c3] = customerIds as [number, number, number, number];
    expect((await owner.post("/api/routeplans/", { route: group.id, customer: c0 })).status).toBe(201);
    await owner.post("/api/routeplans/", { route: group.id, customer: c1, stop: "not a number" });
    await owner.post("/api/routeplans/", {
      route: group.id,
      customer: c2,
      stop: 0,
      bill_indicator_flag: "skip",
    });
    const clamped = await owner.post("/api/routeplans/", { route: group.id, customer: c3, stop: 99 });
    expect((clamped.body as Plan).stop).toBe(3);
    const plans = await members(group.id);
    expect(customersInOrder(plans)).toEqual([c2, c0, c1, c3]);
    expect(plans[0]?.bill_indicator_flag).toBe("skip");
    expectNoGaps(plans);
  });

  it("moves within the group, falling back to the last place for non-numeric or too large stops", async () => {
    const group = await newGroup("Moves");
    const ids = customerIds.slice(0, 4);
    const plans: Plan[] = [];
    for (const customer of ids)
      plans.push((await owner.post("/api/routeplans/", { route: group.id, customer })).body as Plan);
    const move = (plan: Plan, stop: unknown, flag = "standard") =>
      owner.put(`/api/routeplans/${plan.id}/`, {
        route: group.id,
        customer: plan.customer,
        stop,
        bill_indicator_flag: flag,
      });
    expect((await move(plans[3]!, 0, "pause")).status).toBe(200);
    expect(customersInOrder(await members(group.id))).toEqual([ids[3], ids[0], ids[1], ids[2]]);
    await move(plans[3]!, "abc");
    expect(customersInOrder(await members(group.id))).toEqual([ids[0], ids[1], ids[2], ids[3]]);
    await move(plans[0]!, 1000);
    expect(customersInOrder(await members(group.id))).toEqual([ids[1], ids[2], ids[3], ids[0]]);
    await move(plans[0]!, -3);
    const after = await members(group.id);
    expect(customersInOrder(after)).toEqual([ids[0], ids[1], ids[2], ids[3]]);
    expectNoGaps(after);
  });

  it("closes the gap on removal, and moves a member to another group", async () => {
    const first = await newGroup("From");
    const second = await newGroup("To");
    const ids = customerIds.slice(4, 8);
    const plans: Plan[] = [];
    for (const customer of ids.slice(0, 3)) {
      plans.push((await owner.post("/api/routeplans/", { route: first.id, customer })).body as Plan);
    }
    await owner.post("/api/routeplans/", { route: second.id, customer: ids[3] });
    expect((await owner.delete(`/api/routeplans/${plans[0]!.id}/`)).status).toBe(204);
    expectNoGaps(await members(first.id));
    const moved = await owner.put(`/api/routeplans/${plans[1]!.id}/`, {
      route: second.id,
      customer: plans[1]!.customer,
      stop: 0,
      bill_indicator_flag: "standard",
    });
    expect(moved.status).toBe(200);
    expect(customersInOrder(await members(first.id))).toEqual([ids[2]]);
    expect(customersInOrder(await members(second.id))).toEqual([ids[1], ids[3]]);
    expectNoGaps(await members(first.id));
    expectNoGaps(await members(second.id));
  });

  it("refuses a missing group, a duplicate member, and foreign or unknown records", async () => {
    const group = await newGroup("Rules");
    expect((await owner.post("/api/routeplans/", { customer: customerIds[0] })).body).toEqual({
      route: ["No group selected. Please select a group before adding the customer."],
    });
    await owner.post("/api/routeplans/", { route: group.id, customer: customerIds[0] });
    expect(
      (await owner.post("/api/routeplans/", { route: group.id, customer: customerIds[0] })).body,
    ).toEqual({
      non_field_errors: ["This customer is already in the group."],
    });
    expect(
      (await owner.post("/api/routeplans/", { route: 99_999_999, customer: customerIds[0] })).status,
    ).toBe(400);
    expect((await owner.post("/api/routeplans/", { route: group.id, customer: 99_999_999 })).status).toBe(
      400,
    );
    const other = testApp.client(fixture.b.ownerToken);
    expect((await other.post("/api/routeplans/", { route: group.id, customer: customerIds[1] })).status).toBe(
      400,
    );
  });

  it("lists memberships by customer, by group and by repeated id", async () => {
    const group = await newGroup("Lists");
    const a = (await owner.post("/api/routeplans/", { route: group.id, customer: customerIds[9] }))
      .body as Plan;
    const b = (await owner.post("/api/routeplans/", { route: group.id, customer: customerIds[10] }))
      .body as Plan;
    const byCustomer = (await owner.get("/api/routeplans/", { customer__id: customerIds[9] })).body as {
      results: Plan[];
    };
    expect(byCustomer.results.map((plan) => plan.id)).toEqual([a.id]);
    const byRoute = (await owner.get("/api/routeplans/", { route: group.id })).body as { results: Plan[] };
    expect(byRoute.results.map((plan) => plan.id)).toEqual([a.id, b.id]);
    const byIds = await owner.request("GET", `/api/routeplans/?id=${a.id}&id=${b.id}`);
    expect((byIds.body as { results: Plan[] }).results.map((plan) => plan.id)).toEqual([a.id, b.id]);
    expect((await owner.get(`/api/routeplans/${a.id}/`)).body).toMatchObject({
      routeplan_id: a.id,
      customer: customerIds[9],
    });
  });

  it("keeps stops 0..n-1 through any sequence of adds, moves and removes over HTTP", async () => {
    const pool = customerIds.slice(0, 8);
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            kind: fc.constantFrom("add", "move", "remove"),
            customer: fc.constantFrom(...pool),
            stop: fc.oneof(fc.integer({ min: -2, max: 12 }), fc.constant("x"), fc.constant(null)),
          }),
          { minLength: 1, maxLength: 10 },
        ),
        async (steps) => {
          runs += 1;
          const group = await newGroup(`Property ${runs}`);
          for (const step of steps) {
            const current = await members(group.id);
            const plan = current.find((member) => member.customer === step.customer);
            if (step.kind === "add" && !plan) {
              await owner.post("/api/routeplans/", {
                route: group.id,
                customer: step.customer,
                stop: step.stop,
              });
            } else if (step.kind === "move" && plan) {
              await owner.put(`/api/routeplans/${plan.id}/`, {
                route: group.id,
                customer: step.customer,
                stop: step.stop,
              });
            } else if (step.kind === "remove" && plan) {
              await owner.delete(`/api/routeplans/${plan.id}/`);
            }
            const after = await members(group.id);
            expectNoGaps(after);
            expect(new Set(customersInOrder(after)).size).toBe(after.length);
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it("renumbers without gaps or duplicates under concurrent edits", async () => {
    const group = await newGroup("Concurrent");
    const ids = customerIds.slice(0, 10);
    // Adds racing each other.
    await Promise.all(
      ids.map((customer) => owner.post("/api/routeplans/", { route: group.id, customer, stop: 0 })),
    );
    let plans = await members(group.id);
    expect(plans).toHaveLength(10);
    expectNoGaps(plans);
    // Moves and removes racing each other.
    await Promise.all([
      ...plans.slice(0, 6).map((plan, index) =>
        owner.put(`/api/routeplans/${plan.id}/`, {
          route: group.id,
          customer: plan.customer,
          stop: 9 - index,
        }),
      ),
      ...plans.slice(6, 8).map((plan) => owner.delete(`/api/routeplans/${plan.id}/`)),
    ]);
    plans = await members(group.id);
    expect(plans).toHaveLength(8);
    expectNoGaps(plans);
  });
});

describe("groups", () => {
  it("shows members in stop order on the group, offers a typeahead and a Group Report PDF", async () => {
    const group = await newGroup("Report route");
    for (const customer of customerIds.slice(0, 3))
      await owner.post("/api/routeplans/", { route: group.id, customer });
    const found = (await owner.get("/api/typeahead/routes/", { query: "report" })).body as {
      results: Group[];
    };
    expect(found.results.map((match) => match.id)).toEqual([group.id]);
    const response = await fetch(`${testApp.baseUrl}/api/pdf/route-reports/${group.id}`, {
      headers: { authorization: `Bearer ${fixture.a.ownerToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain(`filename="Group Report ${group.id}.pdf"`);
    expect(
      Buffer.from(await response.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    expect(
      (await testApp.client(fixture.b.ownerToken).get(`/api/pdf/route-reports/${group.id}`)).status,
    ).toBe(404);
    // Deleting a group removes its memberships, not its customers.
    expect((await owner.delete(`/api/routes/${group.id}/`)).status).toBe(204);
    expect(((await owner.get("/api/routeplans/", { route: group.id })).body as { count: number }).count).toBe(
      0,
    );
    expect(
      ((await owner.get("/api/typeahead/customers/", { query: "Member 0" })).body as { count: number }).count,
    ).toBe(1);
  });
});
