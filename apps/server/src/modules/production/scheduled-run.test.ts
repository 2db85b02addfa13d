import { eq, sql } from "drizzle-orm";
import { scheduledCycleListSchema, type ScheduledCycle } from "@cyclebill/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { currentClock, setClock } from "../../clock.js";
import { queryRows } from "../../db/query-rows.js";
import { cycleRuns, productionRuns, scheduledRuns, statements } from "../../db/tables.js";
import { createProductionClient } from "../../test-support/production-client.js";
import {
  admin,
  fixture,
  testApp,
  useProductionApp,
  waitForProductionRun,
} from "../../test-support/production-app.js";

// Issue 41, scheduled cycles: a cycle day runs by itself at its time (by the app's clock, in the
// provider's time zone), once however many checks run at once; a preview held for approval runs when
// approved; a held client is left out and listed with why.

const realClock = currentClock();
let now = new Date("2025-06-11T08:59:00Z");

useProductionApp({ chunkSize: 2, otherCycle: 28 });

beforeAll(() => setClock({ now: () => now, timeZone: "UTC" }));
afterAll(() => setClock(realClock));

const at = (iso: string) => {
  now = new Date(iso);
};

async function scheduled(): Promise<ScheduledCycle[]> {
  const response = await admin.get("/api/production/scheduled/");
  expect(response.status, response.text).toBe(200);
  return scheduledCycleListSchema.parse(response.body).results;
}

async function check(): Promise<void> {
  const response = await admin.post("/api/production/scheduled/check/");
  expect(response.status, response.text).toBe(200);
}

const runsOfCycle = (cycle: number) => testApp.db.select().from(cycleRuns).where(eq(cycleRuns.cycle, cycle));

describe("scheduled cycles", () => {
  it("are set by admins only, with a time as HH:MM", async () => {
    const owner = testApp.client(fixture.a.ownerToken);
    expect((await owner.put("/api/production/schedules/11/", { run_time: "09:00" })).status).toBe(403);
    expect((await owner.get("/api/production/scheduled/")).status).toBe(403);
    const bad = await admin.put("/api/production/schedules/11/", { run_time: "9am" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ run_time: ["Enter a time as HH:MM (00:00 to 23:59)."] });
    expect((await admin.put("/api/production/schedules/29/", { run_time: "09:00" })).status).toBe(400);
    const noReason = await admin.put(`/api/production/holds/${fixture.a.clientId}/`, { reason: " " });
    expect(noReason.status).toBe(400);
    expect(noReason.body).toEqual({ reason: ["Say why the client is held."] });
  });

  it("start the cycle's run once at its time, however many checks run at once", async () => {
    const client = await createProductionClient(testApp.db, {
      clientNo: 9011,
      cycle: 11,
      dateLastBilling: "2025-05-11",
      customers: 3,
    });
    const set = await admin.put("/api/production/schedules/11/", { run_time: "09:00" });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ cycle: 11, run_time: "09:00", requires_approval: false });

    at("2025-06-11T08:59:00Z");
    await check();
    expect(await scheduled()).toMatchObject([{ cycle: 11, run_date: "2025-06-11", state: "due", id: null }]);
    expect(await runsOfCycle(11)).toHaveLength(0);

    at("2025-06-11T09:00:00Z");
    await Promise.all([check(), check(), check()]);
    await check();
    const runs = await runsOfCycle(11);
    expect(runs).toHaveLength(1);
    const [item] = await scheduled();
    expect(item).toMatchObject({ cycle: 11, cycle_run_id: runs[0]?.id });
    expect(["running", "done"]).toContain(item?.state);
    const run = await waitForProductionRun(admin, runs[0]?.id ?? 0);
    expect(run.status).toBe("done");
    expect(run.clients.map((part) => part.client_id)).toContain(client.clientId);
    expect(await scheduled()).toMatchObject([{ cycle: 11, state: "done" }]);
    const made = await testApp.db.select().from(statements).where(eq(statements.clientId, client.clientId));
    expect(made).toHaveLength(3);
    // Later the same day, nothing starts again.
    at("2025-06-11T15:00:00Z");
    await check();
    expect(await runsOfCycle(11)).toHaveLength(1);
    expect(await testApp.db.select().from(scheduledRuns).where(eq(scheduledRuns.cycle, 11))).toHaveLength(1);
  });

  it("hold the preview for approval, and run it once when approved", async () => {
    const client = await createProductionClient(testApp.db, {
      clientNo: 9012,
      cycle: 12,
      dateLastBilling: "2025-05-12",
      customers: 2,
    });
    expect(
      (await admin.put("/api/production/schedules/12/", { run_time: "07:30", requires_approval: true }))
        .status,
    ).toBe(200);
    at("2025-06-12T07:45:00Z");
    await Promise.all([check(), check()]);
    const [waiting] = await scheduled();
    expect(waiting).toMatchObject({ cycle: 12, state: "waiting_approval", requires_approval: true });
    expect(await runsOfCycle(12)).toHaveLength(0);
    await check();
    expect(await runsOfCycle(12)).toHaveLength(0);

    const [first, second] = await Promise.all([
      admin.post(`/api/production/scheduled/${waiting?.id}/approve/`),
      admin.post(`/api/production/scheduled/${waiting?.id}/approve/`),
    ]);
    expect(first?.status, first?.text).toBe(200);
    expect(second?.status, second?.text).toBe(200);
    const runs = await runsOfCycle(12);
    expect(runs).toHaveLength(1);
    expect((await waitForProductionRun(admin, runs[0]?.id ?? 0)).status).toBe("done");
    expect(await scheduled()).toMatchObject([{ cycle: 12, state: "done", cycle_run_id: runs[0]?.id }]);
    const made = await testApp.db.select().from(statements).where(eq(statements.clientId, client.clientId));
    expect(made).toHaveLength(2);
    const [trail] = await queryRows(
      testApp.db,
      sql`select count(*)::int as n from audit_events where action in ('scheduled_run.approve', 'production_schedule.create')`,
      z.object({ n: z.number() }),
    );
    expect(trail?.n).toBeGreaterThanOrEqual(3);
  });

  it("leave a held client out and list it with why; a cycle of held clients only is held", async () => {
    const billed = await createProductionClient(testApp.db, {
      clientNo: 9013,
      cycle: 13,
      dateLastBilling: "2025-05-13",
      customers: 2,
    });
    const held = await createProductionClient(testApp.db, {
      clientNo: 9113,
      cycle: 13,
      dateLastBilling: "2025-05-13",
      customers: 2,
    });
    const hold = await admin.put(`/api/production/holds/${held.clientId}/`, { reason: "Disputed rates" });
    expect(hold.status, hold.text).toBe(200);
    expect((await admin.put("/api/production/schedules/13/", { run_time: "06:00" })).status).toBe(200);
    at("2025-06-13T05:00:00Z");
    expect(await scheduled()).toMatchObject([
      { cycle: 13, state: "due", held: [{ client_id: held.clientId, reason: "Disputed rates" }] },
    ]);
    at("2025-06-13T06:00:00Z");
    await check();
    const runs = await runsOfCycle(13);
    expect(runs).toHaveLength(1);
    const run = await waitForProductionRun(admin, runs[0]?.id ?? 0);
    expect(run.clients.map((part) => part.client_id)).toEqual([billed.clientId]);
    expect(await scheduled()).toMatchObject([
      {
        cycle: 13,
        state: "done",
        held: [{ client_id: held.clientId, client_name: "Production client 9113", reason: "Disputed rates" }],
      },
    ]);
    const heldParts = await testApp.db
      .select()
      .from(productionRuns)
      .where(eq(productionRuns.clientId, held.clientId));
    expect(heldParts).toHaveLength(0);

    // Every client of cycle 14 held: nothing runs, and the cycle shows as held.
    const only = await createProductionClient(testApp.db, {
      clientNo: 9014,
      cycle: 14,
      dateLastBilling: "2025-05-14",
      customers: 1,
    });
    expect((await admin.put(`/api/production/holds/${only.clientId}/`, { reason: "Closing" })).status).toBe(
      200,
    );
    expect((await admin.put("/api/production/schedules/14/", { run_time: "06:00" })).status).toBe(200);
    at("2025-06-14T06:30:00Z");
    await check();
    expect(await runsOfCycle(14)).toHaveLength(0);
    expect(await scheduled()).toMatchObject([{ cycle: 14, state: "held", held: [{ reason: "Closing" }] }]);
    expect((await admin.delete(`/api/production/holds/${only.clientId}/`)).status).toBe(204);
    expect((await admin.delete(`/api/production/holds/${only.clientId}/`)).status).toBe(404);
  });

  it("start once after a worker died between the claim and the start, or between the start and its record", async () => {
    for (const [cycle, startedBeforeDeath] of [
      [15, false],
      [16, true],
    ] as const) {
      await createProductionClient(testApp.db, {
        clientNo: 9000 + cycle,
        cycle,
        dateLastBilling: `2025-05-${cycle}`,
        customers: 1,
      });
      expect((await admin.put(`/api/production/schedules/${cycle}/`, { run_time: "08:00" })).status).toBe(
        200,
      );
      at(`2025-06-${cycle}T08:00:00Z`);
      // What a worker killed with kill -9 leaves: the claim committed, the run not started (or started,
      // the scheduled run not yet pointing at it).
      const [claimed] = await testApp.db
        .insert(scheduledRuns)
        .values({ cycle, runDate: `2025-06-${cycle}`, state: "starting", requiresApproval: false })
        .returning();
      if (startedBeforeDeath) {
        const started = await admin.request("POST", `/api/dailyproduction/cycle/${cycle}/`, {
          body: { run_date: `2025-06-${cycle}` },
          headers: { "idempotency-key": `scheduled-run:${claimed?.id}` },
        });
        expect(started.status, started.text).toBe(202);
      }
      await Promise.all([check(), check()]);
      const runs = await runsOfCycle(cycle);
      expect(runs).toHaveLength(1);
      expect((await waitForProductionRun(admin, runs[0]?.id ?? 0)).status).toBe("done");
      expect(await scheduled()).toMatchObject([{ cycle, state: "done", cycle_run_id: runs[0]?.id }]);
    }
  });

  it("are not due on the 29th to the 31st, which are no cycle's day", async () => {
    at("2025-06-29T12:00:00Z");
    await check();
    expect(await scheduled()).toEqual([]);
  });
});
