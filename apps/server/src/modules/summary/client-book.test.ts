import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { addDays } from "@cyclebill/domain";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { codes, customers } from "../../db/tables.js";
import { httpClient, TEST_JWT_SECRET, type ApiClient, type TestApp } from "../../test-support/test-app.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import { createCodes, TENS_CODES } from "../../test-support/test-codes.js";
import { businessToday } from "../../clock.js";
import { pruneCustomerChanges } from "../ledger/customer-changes.js";
import { postTransaction } from "../transactions/post-transaction.js";
import { computeClientSummary } from "./client-summary.js";

// The home cards are summed from each process's client book, refreshed from the customer_changes
// log; these tests hold the book's figures to a full computation from the ledger after every kind
// of change, across an in-flight transaction that commits late, and across two server processes.

useTenantApp();

const daysBefore = (asOf: string, days: number) => addDays(asOf, -days);

/** A small deterministic generator, so a failure replays. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const makeCodes = (clientId: number) => createCodes(testApp.db, clientId, TENS_CODES);

async function summaryOf(client: ApiClient, clientId: number): Promise<unknown> {
  const response = await client.get(`/api/summary-data/client/${clientId}`);
  expect(response.status).toBe(200);
  return response.body;
}

async function fullSummary(clientId: number): Promise<unknown> {
  return computeClientSummary(testApp.db, clientId, businessToday(), false);
}

describe("the client book behind GET /api/summary-data/client/{id}", () => {
  it("equals a full computation after random postings, edits, deletions, voids, archives and code changes", async () => {
    const clientId = fixture.a.clientId;
    const owner = testApp.client(fixture.a.ownerToken);
    const today = businessToday();
    const codeIds = await makeCodes(clientId);
    const codeList = Object.values(codeIds);
    const customerIds = (
      await testApp.db.select({ id: customers.id }).from(customers).where(eq(customers.clientId, clientId))
    ).map((row) => row.id);
    const entryIds: number[] = [];
    const invoiced: number[] = [];
    const random = generator(17);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const rate = () => (1 + Math.floor(random() * 20_000) / 100).toFixed(2);
    const serviceDate = () => daysBefore(today, Math.floor(random() * 150));
    const randomEntry = () => ({
      customer: pick(customerIds),
      code: pick(codeList),
      rate: rate(),
      serviceDate: serviceDate(),
      force: true,
    });

    // Built before the changes, so every later figure comes from a partial refresh.
    expect(await summaryOf(owner, clientId)).toEqual(await fullSummary(clientId));
    const done = new Map<string, number>();
    for (let step = 0; step < 80; step += 1) {
      const roll = random();
      let kind: string;
      let status: number;
      if (roll < 0.08 || customerIds.length < 3) {
        kind = "add customer";
        const response = await owner.post("/api/customers/", {
          address1: "1 Main St",
          city: "Austin",
          state: "TX",
          zip: "73301",
          first_name: "New",
          last_name: `C${step}`,
        });
        status = response.status;
        if (status === 201) customerIds.push((response.body as { id: number }).id);
      } else if (roll < 0.42 || entryIds.length === 0) {
        kind = "post";
        const response = await owner.post("/api/transactions/", randomEntry());
        status = response.status;
        if (status === 201) entryIds.push((response.body as { id: number }).id);
      } else if (roll < 0.54) {
        kind = "edit";
        const response = await owner.put(`/api/transactions/${pick(entryIds)}/`, randomEntry());
        status = response.status;
      } else if (roll < 0.62) {
        kind = "delete";
        const id = pick(entryIds);
        status = (await owner.delete(`/api/transactions/${id}/`)).status;
        if (status === 204) entryIds.splice(entryIds.indexOf(id), 1);
      } else if (roll < 0.7 || invoiced.length === 0) {
        // An entry on an invoice can be voided (and no longer edited).
        kind = "invoice";
        const id = pick(entryIds);
        status = (await owner.post("/api/transactions/make_invoice/", { ids: [id] })).status;
        if (status < 300) invoiced.push(id);
      } else if (roll < 0.8) {
        kind = "void";
        const response = await owner.post(`/api/transactions/${pick(invoiced)}/void_transaction/`);
        status = response.status;
      } else if (roll < 0.88) {
        kind = "archive";
        const [settled] = await queryRows(
          testApp.db,
          sql`select id from customers where client_id = ${clientId} and not deleted and total_balance = 0
              order by random() limit 1`,
          z.object({ id: dbInt }),
        );
        const id = settled ? settled.id : pick(customerIds);
        status = (await owner.delete(`/api/customers/${id}/`)).status;
        if (status === 204) customerIds.splice(customerIds.indexOf(id), 1);
      } else if (roll < 0.94) {
        // Archived by the ledger once its balance reaches zero.
        kind = "mark for deletion";
        status = (await owner.post(`/api/customers/${pick(customerIds)}/delete-flag/`, { delete_flag: "D" }))
          .status;
      } else {
        // A code's type decides which month-to-date figure its entries add to.
        kind = "code type";
        await testApp.db
          .update(codes)
          .set({ codeType: random() < 0.5 ? "debit" : "charge" })
          .where(eq(codes.id, codeIds.debit));
        status = 200;
      }
      expect(status, kind).toBeLessThan(500);
      if (status < 300) done.set(kind, (done.get(kind) ?? 0) + 1);
      expect(await summaryOf(owner, clientId), `after step ${step} (${kind})`).toEqual(
        await fullSummary(clientId),
      );
    }
    // The mix really happened.
    for (const kind of [
      "post",
      "edit",
      "delete",
      "add customer",
      "invoice",
      "void",
      "archive",
      "mark for deletion",
    ])
      expect(done.get(kind) ?? 0).toBeGreaterThan(0);
  });

  it("writes the change log in the posting's transaction: a rolled-back posting leaves no change row", async () => {
    const clientId = fixture.b.clientId;
    const owner = testApp.client(fixture.b.ownerToken);
    const codeIds = await makeCodes(clientId);
    const [customer] = await testApp.db
      .insert(customers)
      .values({ clientId, customerNo: 501, customerName: "Rollback" })
      .returning();
    const changesOf = async (executor: Pick<TestApp["db"], "execute">) =>
      Number(
        (
          await queryRows(
            executor as TestApp["db"],
            sql`select count(*) as count from customer_changes
                where client_id = ${clientId} and customer_id = ${customer!.id}`,
            z.object({ count: dbInt }),
          )
        )[0]?.count,
      );
    const before = await summaryOf(owner, clientId);
    let inside = -1;
    await expect(
      testApp.db.transaction(async (tx) => {
        await postTransaction(
          tx,
          { clientId },
          { customerId: customer!.id, codeId: codeIds.charge, description: "x", rate: "9.00" },
        );
        inside = await changesOf(tx);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(inside).toBe(1);
    expect(await changesOf(testApp.db)).toBe(0);
    expect(await summaryOf(owner, clientId)).toEqual(before);
    // Committed, it is there and counts.
    await postTransaction(
      testApp.db,
      { clientId },
      { customerId: customer!.id, codeId: codeIds.charge, description: "x", rate: "9.00" },
    );
    expect(await changesOf(testApp.db)).toBe(1);
    expect(await summaryOf(owner, clientId)).toEqual(await fullSummary(clientId));
  });

  it("prunes change rows older than a day and keeps the rest", async () => {
    const clientId = fixture.b.clientId;
    await testApp.db.execute(
      sql`insert into customer_changes (client_id, txid, customer_id, changed_at)
          values (${clientId}, 1, 999001, now() - interval '25 hours'), (${clientId}, 2, 999002, now() - interval '2 hours')`,
    );
    await pruneCustomerChanges(testApp.db);
    const left = await queryRows(
      testApp.db,
      sql`select customer_id::text as customer_id from customer_changes
          where client_id = ${clientId} and customer_id in (999001, 999002)`,
      z.object({ customer_id: dbText }),
    );
    expect(left.map((row) => row.customer_id)).toEqual(["999002"]);
  });

  // Concurrent transactions and a second process need a PostgreSQL server.
  describe.runIf(process.env.TEST_DB === "postgres")("on PostgreSQL", () => {
    it("sees a posting whose transaction began before a later one but committed after the book's refresh", async () => {
      const clientId = fixture.b.clientId;
      const owner = testApp.client(fixture.b.ownerToken);
      const [charge] = await testApp.db
        .select({ id: codes.id })
        .from(codes)
        .where(sql`client_id = ${clientId} and code_type = 'charge'`)
        .limit(1);
      const added = async (lastName: string) =>
        (
          (
            await owner.post("/api/customers/", {
              address1: "1 Main St",
              city: "Austin",
              state: "TX",
              zip: "73301",
              first_name: "C",
              last_name: lastName,
            })
          ).body as {
            id: number;
          }
        ).id;
      const early = { id: await added("Early") };
      const late = { id: await added("Late") };
      await summaryOf(owner, clientId);
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let posted = () => undefined as void;
      const wrote = new Promise<void>((resolve) => (posted = resolve));
      // The early transaction writes first (it holds the older transaction id) and commits last.
      const slow = testApp.db.transaction(async (tx) => {
        await postTransaction(
          tx,
          { clientId },
          { customerId: early.id, codeId: charge!.id, description: "early", rate: "70.00" },
        );
        posted();
        await held;
      });
      await wrote;
      await postTransaction(
        testApp.db,
        { clientId },
        { customerId: late.id, codeId: charge!.id, description: "late", rate: "5.00" },
      );
      let between: { newBalance: string };
      try {
        between = (await summaryOf(owner, clientId)) as { newBalance: string };
        expect(between).toEqual(await fullSummary(clientId));
      } finally {
        release();
        await slow;
      }
      const after = (await summaryOf(owner, clientId)) as { newBalance: string };
      expect(after).toEqual(await fullSummary(clientId));
      expect(Number(after.newBalance) - Number(between.newBalance)).toBeCloseTo(70, 2);
    });

    it(
      "shows a posting made through one server process in another process's next summary",
      { timeout: 120_000 },
      async () => {
        if (testApp.jobBackend.kind !== "postgres") throw new Error("needs PostgreSQL");
        const clientId = fixture.a.clientId;
        const dataDir = mkdtempSync(path.join(os.tmpdir(), "cyclebill-second-api-"));
        const port = 4314;
        const child: ChildProcess = spawn("node", ["--conditions=source", "--import", "tsx", "src/main.ts"], {
          cwd: path.resolve(import.meta.dirname, "../../.."),
          env: {
            ...process.env,
            DATABASE_URL: testApp.jobBackend.url,
            DATA_DIR: dataDir,
            PORT: String(port),
            HOST: "127.0.0.1",
            JWT_SECRET: TEST_JWT_SECRET,
            BILLING_SECRETS_KEY: "test-secrets-key",
            BILLING_DEMO: "0",
            WORKERS: "0",
            LOG_LEVEL: "warn",
          },
          stdio: ["ignore", "pipe", "pipe"],
        });
        const output: string[] = [];
        child.stdout?.on("data", (data: Buffer) => output.push(data.toString()));
        child.stderr?.on("data", (data: Buffer) => output.push(data.toString()));
        try {
          const other = httpClient(`http://127.0.0.1:${port}`, fixture.a.ownerToken);
          const deadline = Date.now() + 90_000;
          for (;;) {
            const health = await other.get("/api/health/").catch(() => undefined);
            if (health?.status === 200) break;
            if (Date.now() > deadline || child.exitCode !== null)
              throw new Error(`second server did not start\n${output.join("")}`);
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
          const here = testApp.client(fixture.a.ownerToken);
          const [customer] = await testApp.db
            .select({ id: customers.id })
            .from(customers)
            // One that takes charges: the random test before may have marked some for deletion.
            .where(sql`client_id = ${clientId} and not deleted and coalesce(delete_flag, '') = ''`)
            .orderBy(customers.id)
            .limit(1);
          const [charge] = await testApp.db
            .select({ id: codes.id })
            .from(codes)
            .where(sql`client_id = ${clientId} and code_type = 'charge'`)
            .limit(1);
          // Both processes build their books.
          expect(await summaryOf(other, clientId)).toEqual(await summaryOf(here, clientId));
          const balance = async (client: ApiClient) =>
            Number(((await summaryOf(client, clientId)) as { newBalance: string }).newBalance);
          const start = await balance(other);
          for (const [through, seenBy, rate] of [
            [here, other, "12.34"],
            [other, here, "5.66"],
          ] as const) {
            const before = await balance(seenBy);
            const response = await through.post("/api/transactions/", {
              customer: customer!.id,
              code: charge!.id,
              rate,
              force: true,
            });
            expect(response.status, JSON.stringify(response.body)).toBe(201);
            expect(await balance(seenBy)).toBeCloseTo(before + Number(rate), 2);
          }
          expect(await balance(other)).toBeCloseTo(start + 18, 2);
          expect(await summaryOf(other, clientId)).toEqual(await fullSummary(clientId));
          expect(await summaryOf(here, clientId)).toEqual(await fullSummary(clientId));
        } finally {
          child.kill("SIGTERM");
          await new Promise((resolve) =>
            child.exitCode === null ? child.once("exit", resolve) : resolve(null),
          );
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
    );
  });
});
