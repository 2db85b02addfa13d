import { jobRunSchema, type JobRun } from "@cyclebill/domain";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { clients } from "../../db/tables.js";
import { pollUntil } from "../../test-support/poll-until.js";
import { runProductionCycle } from "../../test-support/production-app.js";
import { startTenantApp } from "../../test-support/tenant-app.js";
import type { ApiClient, TenantFixture, TestApp } from "../../test-support/test-app.js";
import { insertCustomer } from "../../test-support/test-customers.js";

// Undo racing the statement-email job (issue 40, point 1), forced with the job's test pause: held
// before its lanes claim their emails, the undo goes first and the job sends nothing; held between
// the claim and the send, the undo answers 409 naming the emails and they all go. Never an undone
// run and accepted emails. (Before: the job marked its batch "sending" without reading the row
// count, so an undo between its read and that mark withdrew the run and the emails went anyway.)

const CYCLE = 9;
const RUN_DATE = "2025-05-09";
const EMAILS = 12;

type Point = "claim" | "send";
let hold: { point: Point; reached: () => void; released: Promise<void> } | null = null;

/** Holds every lane of the next email job at `point` until `release`; `reached` once the first is there. */
function holdAt(point: Point) {
  let reached = () => undefined as void;
  let release = () => undefined as void;
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  hold = { point, reached, released };
  return {
    arrived,
    release: () => {
      hold = null;
      release();
    },
  };
}

let testApp: TestApp;
let fixture: TenantFixture;
let admin: ApiClient;
let clientId: number;
const addresses = Array.from({ length: EMAILS }, (_, index) => `race${index + 1}@email-undo.example`);

beforeAll(async () => {
  ({ testApp, fixture } = await startTenantApp({
    jobs: { chunkSize: 50 },
    deliveryPause: async (point) => {
      const current = hold;
      if (!current || current.point !== point) return;
      current.reached();
      await current.released;
    },
  }));
  admin = testApp.client(fixture.adminToken);
  clientId = fixture.a.clientId;
  await testApp.db
    .update(clients)
    .set({ normalCycle: CYCLE, dateLastBilling: "2025-04-09" })
    .where(eq(clients.id, clientId));
  for (const [index, email] of addresses.entries())
    await insertCustomer(testApp.db, {
      clientId,
      customerNo: 100 + index,
      customerName: `Race ${index + 1}`,
      pullFlag: "E",
      email,
    });
});
afterAll(async () => {
  hold = null;
  await testApp?.close();
});

const mailTo = () => testApp.mail.messages.filter((message) => addresses.includes(message.to));

async function emailJobsEnded(): Promise<void> {
  await pollUntil(
    async () =>
      queryRows(
        testApp.db,
        sql`select count(*)::int as open from pgboss.job
            where name = 'statement-email' and state in ('created', 'retry', 'active')`,
        z.object({ open: dbInt }),
      ),
    (rows) => rows[0]?.open === 0,
    60_000,
  );
}

async function askUndo(runId: number) {
  return admin.post(`/api/productionruns/${runId}/undo/?client_id=${clientId}`);
}

async function waitForJob(id: number): Promise<JobRun> {
  return pollUntil(
    async () => jobRunSchema.parse((await admin.get(`/api/jobs/${id}/`, { client_id: clientId })).body),
    (job) => job.status === "succeeded" || job.status === "failed",
    60_000,
  );
}

const wentOutRows = () =>
  queryRows(
    testApp.db,
    sql`select kind, state from went_out where client_id = ${clientId} and kind = 'email' order by id`,
    z.object({ kind: dbText, state: dbText }),
  );

describe("undo racing the statement-email job", () => {
  it(
    "undone before the job claims its emails: the job sends none of them",
    { timeout: 120_000 },
    async () => {
      const held = holdAt("claim");
      const run = await runProductionCycle(admin, CYCLE, { run_date: RUN_DATE });
      expect(run.status).toBe("done");
      await held.arrived;
      const asked = await askUndo(run.id);
      expect(asked.status, asked.text).toBe(202);
      expect(await waitForJob(jobRunSchema.parse(asked.body).id)).toMatchObject({ status: "succeeded" });
      held.release();
      await emailJobsEnded();
      expect(mailTo().map((message) => message.to)).toEqual([]);
      expect(await wentOutRows()).toEqual([]);
    },
  );

  it(
    "claimed before the undo: the undo answers 409 naming the emails, and they all go",
    { timeout: 120_000 },
    async () => {
      const held = holdAt("send");
      const run = await runProductionCycle(admin, CYCLE, { run_date: RUN_DATE });
      expect(run.status).toBe("done");
      await held.arrived;
      const refused = await askUndo(run.id);
      expect(refused.status, refused.text).toBe(409);
      const body = z.object({ detail: z.string(), went_out: z.array(z.string()) }).parse(refused.body);
      expect(body.went_out.join("; ")).toMatch(/^\d+ statement emails? handed to the mail server$/);
      expect(body.detail).toContain("handed to the mail server");
      held.release();
      await emailJobsEnded();
      expect(
        mailTo()
          .map((message) => message.to)
          .sort(),
      ).toEqual([...addresses].sort());
      expect(await wentOutRows()).toEqual(addresses.map(() => ({ kind: "email", state: "done" })));
      const again = await askUndo(run.id);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        went_out: [`${EMAILS} statement emails handed to the mail server`],
      });
    },
  );
});
