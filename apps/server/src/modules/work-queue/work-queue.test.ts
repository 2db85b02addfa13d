import { pageSchema, workItemSchema, type WorkItem } from "@cyclebill/domain";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { businessToday, currentClock } from "../../clock.js";
import {
  clients,
  codes,
  gatewayEvents,
  paymentAttempts,
  pools,
  productionRuns,
  statementDeliveries,
} from "../../db/tables.js";
import { customerWithStatement, usePaymentFixture } from "../../test-support/payment-fixture.js";

// Issue 41, the bureau's work queue: each kind appears for whom it concerns (the provider's
// admins, a client's owner for its own part, never staff or another client), and leaves the queue
// when its record is resolved or a person marks it handled.

const fixture = usePaymentFixture({ freshLimits: true });
const listSchema = pageSchema(workItemSchema);
const ids: Record<string, number> = {};

const admin = () => fixture.testApp.client(fixture.tenants.adminToken);
const ownerA = () => fixture.testApp.client(fixture.tenants.a.ownerToken);

async function queue(api = admin(), query: Record<string, string | number> = {}): Promise<WorkItem[]> {
  const response = await api.get("/api/work-queue/", query);
  expect(response.status, response.text).toBe(200);
  return listSchema.parse(response.body).results;
}

const keysOf = (items: WorkItem[], kind: WorkItem["kind"]) =>
  items.filter((item) => item.kind === kind).map((item) => item.key);

beforeAll(async () => {
  const { db } = fixture.testApp;
  const a = fixture.tenants.a.clientId;
  const b = fixture.tenants.b.clientId;
  const paying = await customerWithStatement(fixture.testApp, a, "80.00");
  const other = await customerWithStatement(fixture.testApp, b, "30.00");
  ids.customer = paying.customerId;
  ids.statement = paying.statementId;
  const attempt = (clientId: number, customerId: number, key: string, status: "unknown" | "declined") =>
    db
      .insert(paymentAttempts)
      .values({
        clientId,
        customerId,
        idempotencyKey: key,
        kind: "sale",
        source: "autopay",
        method: "card",
        amount: "80.00",
        status,
        mask: "xxxxxxxxxxxx1111",
        message: status === "declined" ? "Declined" : "",
      })
      .returning({ id: paymentAttempts.id });
  ids.unknown = (await attempt(a, paying.customerId, "wq-unknown", "unknown"))[0]!.id;
  ids.declined = (await attempt(a, paying.customerId, "wq-declined", "declined"))[0]!.id;
  ids.declinedB = (await attempt(b, other.customerId, "wq-declined-b", "declined"))[0]!.id;
  const [returned] = await db
    .insert(gatewayEvents)
    .values({
      clientId: a,
      kind: "returned",
      gatewayTransId: "wq-return-1",
      originalTransId: "wq-sale-1",
      customerId: paying.customerId,
      code: "R01",
      reason: "Insufficient funds",
      amount: "40.00",
      eventDate: businessToday(),
      source: "manual",
    })
    .returning({ id: gatewayEvents.id });
  ids.returned = returned!.id;
  const [delivery] = await db
    .insert(statementDeliveries)
    .values({
      clientId: a,
      statementId: paying.statementId,
      recipient: "nobody@example.com",
      status: "failed",
      lastError: "550 5.1.1 mailbox unavailable",
    })
    .returning({ id: statementDeliveries.id });
  ids.email = delivery!.id;
  const [pool] = await db
    .insert(pools)
    .values({
      poolName: "wq-pool-mail",
      poolDate: businessToday(),
      clientId: a,
      state: "ready",
      statementsCount: 3,
      pagesCount: 4,
      finishedAt: currentClock().now(),
    })
    .returning({ id: pools.id });
  ids.pool = pool!.id;
  const [run] = await db
    .insert(productionRuns)
    .values({
      clientId: a,
      cycle: 9,
      runDate: businessToday(),
      runMonth: businessToday().slice(0, 7),
      periodStart: businessToday(),
      periodEnd: businessToday(),
      status: "failed",
      error: "The gateway was down.",
    })
    .returning({ id: productionRuns.id });
  ids.run = run!.id;
  const [heldBack] = await db
    .insert(productionRuns)
    .values({
      clientId: a,
      cycle: 10,
      runDate: businessToday(),
      runMonth: businessToday().slice(0, 7),
      periodStart: businessToday(),
      periodEnd: businessToday(),
      status: "done",
      figures: { no_statement: { no_mailing_address: 2, no_email_address: 1, zero_balance: 7 } },
    })
    .returning({ id: productionRuns.id });
  ids.heldBack = heldBack!.id;
});

describe("the work queue (issue 41)", () => {
  it("lists every kind for the provider's admins, each with the screen that resolves it", async () => {
    const items = await queue();
    expect(keysOf(items, "run_failed")).toEqual([String(ids.run)]);
    expect(keysOf(items, "pool_not_downloaded")).toEqual(["wq-pool-mail"]);
    expect(keysOf(items, "statement_undeliverable")).toEqual([String(ids.heldBack)]);
    expect(items.find((item) => item.kind === "statement_undeliverable")?.detail).toBe(
      "2 without a valid mailing address, 1 without an email address: no statement was made for them",
    );
    expect(keysOf(items, "email_failed")).toEqual([String(ids.email)]);
    expect(keysOf(items, "payment_unknown")).toEqual([String(ids.unknown)]);
    expect(keysOf(items, "payment_declined").sort()).toEqual(
      [String(ids.declined), String(ids.declinedB)].sort(),
    );
    expect(keysOf(items, "payment_returned")).toEqual([String(ids.returned)]);
    const email = items.find((item) => item.kind === "email_failed");
    expect(email).toMatchObject({
      client_id: fixture.tenants.a.clientId,
      action: { label: "Open the customer", to: `/customers/edit/${ids.customer}` },
      handled_by_hand: true,
    });
    expect(email?.detail).toContain("550 5.1.1 mailbox unavailable");
    expect(items.find((item) => item.kind === "pool_not_downloaded")?.detail).toBe(
      "3 statements, 4 pages (mail)",
    );
    // The admin's chosen client only.
    const b = await queue(admin(), { client_id: fixture.tenants.b.clientId });
    expect(b.map((item) => item.key)).toEqual([String(ids.declinedB)]);
  });

  it("shows an owner their own client's part, and staff none", async () => {
    const items = await queue(ownerA());
    expect(new Set(items.map((item) => item.kind))).toEqual(
      new Set([
        "statement_undeliverable",
        "email_failed",
        "payment_unknown",
        "payment_declined",
        "payment_returned",
      ]),
    );
    expect(items.map((item) => item.key)).not.toContain(String(ids.declinedB));
    const staff = await fixture.testApp.client(fixture.tenants.a.staffToken).get("/api/work-queue/");
    expect(staff.status).toBe(403);
  });

  it("drops a return, a decline, a failed email and held-back statements once a person marks them handled", async () => {
    for (const [kind, key] of [
      ["statement_undeliverable", ids.heldBack],
      ["payment_returned", ids.returned],
      ["payment_declined", ids.declined],
      ["email_failed", ids.email],
    ] as const) {
      const marked = await ownerA().post("/api/work-queue/handled/", {
        kind,
        key: String(key),
        note: "Called the customer",
      });
      expect(marked.status, marked.text).toBe(201);
      expect(marked.body).toMatchObject({ kind, key: String(key), note: "Called the customer" });
    }
    const items = await queue(ownerA());
    expect(items.map((item) => item.kind)).toEqual(["payment_unknown"]);
    // Another client's item is not the owner's to mark: 404, as every foreign id.
    const foreign = await ownerA().post("/api/work-queue/handled/", {
      kind: "payment_declined",
      key: String(ids.declinedB),
    });
    expect(foreign.status).toBe(404);
    const refused = await ownerA().post("/api/work-queue/handled/", { kind: "payment_unknown", key: "1" });
    expect(refused.status).toBe(400);
  });

  it("drops a lost answer once checked, a pool once downloaded and a failed run once retried", async () => {
    const resolved = await ownerA().post(`/api/payment-attempts/${ids.unknown}/resolve/`, {
      outcome: "not_charged",
      reason: "Not in the gateway's report",
    });
    expect(resolved.status, resolved.text).toBe(200);
    const { db } = fixture.testApp;
    await db.update(pools).set({ downloadedAt: currentClock().now() }).where(eq(pools.id, ids.pool!));
    await db
      .update(productionRuns)
      .set({ status: "done" })
      .where(and(eq(productionRuns.clientId, fixture.tenants.a.clientId), eq(productionRuns.id, ids.run!)));
    const left = await queue(admin(), { client_id: fixture.tenants.a.clientId });
    expect(left).toEqual([]);
  });

  it("lists a statement that no longer proves itself after a reopen until it is reissued", async () => {
    const a = fixture.tenants.a.clientId;
    await fixture.testApp.db
      .update(clients)
      .set({ booksClosedThrough: "2026-01-31" })
      .where(eq(clients.id, a));
    const reopened = await admin().post(
      `/api/clients/${a}/closed-period/reopen/`,
      { reason: "A charge was missed", closed_through: "2025-12-31" },
      { client_id: a },
    );
    expect(reopened.status, reopened.text).toBe(200);
    // A charge missed in January, posted into the reopened period: the January statement is short.
    const [code] = await fixture.testApp.db
      .select({ id: codes.id })
      .from(codes)
      .where(and(eq(codes.clientId, a), eq(codes.code, 100)));
    const missed = await ownerA().post("/api/transactions/", {
      customer: ids.customer,
      code: code?.id,
      rate: "7.50",
      serviceDate: "2026-01-20",
    });
    expect(missed.status, missed.text).toBe(201);
    const items = await queue(admin(), { client_id: a, kind: "statement_unproven" });
    expect(items.map((item) => item.key)).toContain(String(ids.statement));
    expect(items[0]?.action.label).toBe("Reissue corrected");
    // Closed again and reissued, the corrected version proves itself: the item leaves the queue.
    const closed = await admin().post(
      `/api/clients/${a}/closed-period/close/`,
      { reason: "Corrected", closed_through: "2026-01-31" },
      { client_id: a },
    );
    expect(closed.status, closed.text).toBe(200);
    const reissued = await ownerA().post(`/api/statements/${ids.statement}/reissue/`, {});
    expect(reissued.status, reissued.text).toBe(201);
    const left = await queue(admin(), { client_id: a, kind: "statement_unproven" });
    expect(left.map((item) => item.key)).not.toContain(String(ids.statement));
  });
});
