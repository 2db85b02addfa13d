import { eq, sql } from "drizzle-orm";
import { addDays } from "@cyclebill/domain";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessToday } from "../../clock.js";
import { clients } from "../../db/tables.js";
import { queryRows } from "../../db/query-rows.js";
import { startMisbehavingGateway, type MisbehavingGateway } from "../../test-support/misbehaving-gateway.js";
import { MASTERCARD, VISA, startPaymentFixture } from "../../test-support/payment-fixture.js";
import { pollUntil } from "../../test-support/poll-until.js";
import { accessSteps, resourceSteps } from "../../test-support/audit-walk/walk-steps-access.js";
import { ledgerSteps, readOnlyPosts } from "../../test-support/audit-walk/walk-steps-ledger.js";
import { paymentSteps, productionSteps } from "../../test-support/audit-walk/walk-steps-money.js";
import { scheduleSteps } from "../../test-support/audit-walk/walk-steps-schedule.js";
import { securitySteps } from "../../test-support/audit-walk/walk-steps-security.js";
import {
  idOf,
  ok,
  trailHeads,
  trailSince,
  type TrailRow,
  type WalkStep,
  type WalkWorld,
} from "../../test-support/audit-walk/walk-world.js";

// Issue 39, "every route that writes leaves a trail row with before and after values": the walk
// calls each writing operation of the OpenAPI document for real, in one world, and fails on a route
// that left no trail row (or none with values), and on a writing route it has no call for.

const WRITING_METHODS = new Set(["post", "put", "patch", "delete"]);
const steps: WalkStep[] = [
  ...accessSteps,
  ...resourceSteps,
  ...paymentSteps,
  ...ledgerSteps,
  ...productionSteps,
  ...scheduleSteps,
  ...securitySteps,
];

let world: WalkWorld;

beforeAll(async () => {
  let gw: MisbehavingGateway | undefined;
  const fixture = await startPaymentFixture({
    jobs: { chunkSize: 50 },
    gatewayTimeoutMs: 2_000,
    standIn: async (url) => (gw = await startMisbehavingGateway(url)),
  });
  if (!gw) throw new Error("no stand-in gateway");
  const { testApp, tenants } = fixture;
  world = {
    ...fixture,
    gw,
    owner: testApp.client(tenants.a.ownerToken),
    staff: testApp.client(tenants.a.staffToken),
    admin: testApp.client(tenants.adminToken),
    anonymous: testApp.client(),
    clientId: tenants.a.clientId,
    made: {},
    texts: {},
  };
  // A run date a few days back whose day is a cycle day (1-28), with the client billed a month before.
  let runDate = addDays(businessToday(), -2);
  while (Number(runDate.slice(8)) > 28) runDate = addDays(runDate, -1);
  world.texts.runDate = runDate;
  world.made.cycle = Number(runDate.slice(8));
  await testApp.db
    .update(clients)
    .set({ normalCycle: world.made.cycle, dateLastBilling: addDays(runDate, -30) })
    .where(eq(clients.id, world.clientId));
  world.made.chargeCode = idOf(
    ok(
      await world.owner.post("/api/codes/", { code: 4100, description: "Walk service", code_type: "charge" }),
      "code",
    ),
  );
}, 120_000);

afterAll(async () => {
  await world?.close();
});

const matches = (row: TrailRow, action: string | RegExp) =>
  typeof action === "string" ? row.action === action : action.test(row.action);

describe("the audit walk", () => {
  it("leaves a trail row with the values before and after for every writing route", async () => {
    const document = ok(await world.anonymous.get("/api/docs"), "docs").body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const writing = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => WRITING_METHODS.has(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    const failures: string[] = [];
    for (const step of steps) {
      const heads = await trailHeads(world);
      let rows: TrailRow[] = [];
      try {
        const answer = await step.call(world);
        if (answer.status >= 300) {
          failures.push(`${step.route}: answered ${answer.status} ${answer.text.slice(0, 300)}`);
          continue;
        }
        rows = step.byJob
          ? await pollUntil(
              () => trailSince(world, heads),
              (found) => found.some((row) => matches(row, step.action)),
              15_000,
            ).catch(() => trailSince(world, heads))
          : await trailSince(world, heads);
      } catch (error) {
        failures.push(`${step.route}: ${String(error)}`);
        continue;
      }
      const row = rows.find((candidate) => matches(candidate, step.action));
      if (!row) {
        failures.push(
          `${step.route}: no ${String(step.action)} row (rows: ${rows.map((r) => r.action).join(", ") || "none"})`,
        );
        continue;
      }
      if (!step.noValues && row.changes.length === 0)
        failures.push(`${step.route}: ${row.action} has no values`);
    }
    const covered = new Set([...steps.map((step) => step.route), ...readOnlyPosts.map((post) => post.route)]);
    const uncovered = writing.filter((route) => !covered.has(route));
    const unknown = [...covered].filter((route) => !writing.includes(route));
    expect({ failures, uncovered, unknown }).toEqual({ failures: [], uncovered: [], unknown: [] });
  }, 600_000);

  it("never holds a card number", async () => {
    const [found] = await queryRows(
      world.testApp.db,
      sql`select count(*)::int as n from audit_events where changes::text like ${`%${VISA}%`} or changes::text like ${`%${MASTERCARD}%`}`,
      z.object({ n: z.number() }),
    );
    expect(found?.n).toBe(0);
  });
});
