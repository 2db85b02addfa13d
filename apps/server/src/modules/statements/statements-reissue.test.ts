import { sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import {
  poolPageSchema,
  statementDetailSchema,
  statementRecordSchema,
  statementResendSchema,
  usDate,
  type PoolRecord,
  type StatementDetail,
} from "@cyclebill/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { businessToday } from "../../clock.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbInt } from "../../db/row-schemas.js";
import { postInOneTransaction, serviceCharge } from "../../test-support/ledger-rows.js";
import { pdfText } from "../../test-support/pdf-text.js";
import { pollUntil } from "../../test-support/poll-until.js";
import {
  admin,
  clientId,
  fixture,
  runProductionCycle,
  testApp,
  useProductionApp,
} from "../../test-support/production-app.js";
import { createCodes } from "../../test-support/test-codes.js";
import { insertCustomer } from "../../test-support/test-customers.js";
import type { ApiClient } from "../../test-support/test-app.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { statementMismatches } from "../ledger/statement-mismatches.js";

// Issue 41, corrected statements: a run's statement, its period reopened and a charge posted into
// it, so the statement no longer proves itself; reissued once the books are closed again (same
// number, "Corrected", the old one kept and replaced, the doctor clean); resent by email once per
// press; queued for the next pool and printed there once. A fixed past cycle: passes on any date.
const CYCLE = 12;
const JUNE = "2025-06-12";
const JULY = "2025-07-12";
const EMAIL = "rita.reissue@example.com";

const pageSchema = z.object({ count: z.number(), results: z.array(statementRecordSchema) });
const idRowSchema = z.object({ id: dbInt });

let owner: ApiClient;
let customerId: number;
let service: number;
let june: StatementDetail;

useProductionApp({ chunkSize: 10, client: { normalCycle: CYCLE, dateLastBilling: "2025-05-12" } });

async function statement(id: number): Promise<StatementDetail> {
  const answer = await owner.get(`/api/statements/${id}/`);
  expect(answer.status, answer.text).toBe(200);
  return statementDetailSchema.parse(answer.body);
}

async function notProving(): Promise<number[]> {
  const answer = await owner.get("/api/statements/", { proves: "false" });
  expect(answer.status, answer.text).toBe(200);
  return pageSchema.parse(answer.body).results.map((row) => row.id);
}

async function mailTo(address: string): Promise<number> {
  return testApp.mail.messages.filter((message) => message.to.toLowerCase().includes(address)).length;
}

beforeAll(async () => {
  owner = testApp.client(fixture.a.ownerToken);
  customerId = await insertCustomer(testApp.db, {
    clientId,
    customerNo: 41,
    customerName: "Rita Reissue",
    lastName: "Reissue",
    address1: "41 Elm St",
    email: EMAIL,
  });
  ({ service } = await createCodes(testApp.db, clientId, {
    service: { code: 541, codeType: "charge", description: "Service" },
  }));
  await postInOneTransaction(testApp.db, clientId, [
    serviceCharge(customerId, service, "40.00", "2025-06-02"),
  ]);
  const run = await runProductionCycle(admin, CYCLE, { run_date: JUNE, client_ids: [clientId] });
  expect(run.status).toBe("done");
  const [row] = await queryRows(
    testApp.db,
    sql`select id from statements where client_id = ${clientId} and customer_id = ${customerId}`,
    idRowSchema,
  );
  june = await statement(Number(row?.id));
}, 120_000);

describe("a statement whose period was reopened and changed", () => {
  it("stops proving itself, and is reissued only once the books are closed again", async () => {
    expect(june).toMatchObject({ version: 1, proves: true, replaced_by: null, new_balance: "40.00" });
    expect(june.actions).not.toContain("reissue");
    expect(await notProving()).toEqual([]);

    const reopened = await admin.post(`/api/clients/${clientId}/closed-period/reopen/`, {
      reason: "A charge was missed",
    });
    expect(reopened.status, reopened.text).toBe(200);
    await postInOneTransaction(testApp.db, clientId, [
      serviceCharge(customerId, service, "7.50", "2025-06-05"),
    ]);

    expect(await notProving()).toEqual([june.id]);
    const failing = await statement(june.id);
    expect(failing.proves).toBe(false);
    // Not offered, and refused, while the period is open: a correction is final once issued.
    expect(failing.actions).not.toContain("reissue");
    const early = await owner.post(`/api/statements/${june.id}/reissue/`);
    expect(early.status).toBe(400);
    expect(early.text).toContain(`Close the books through ${usDate(JUNE)} again before reissuing`);

    const closed = await admin.post(`/api/clients/${clientId}/closed-period/close/`, {});
    expect(closed.status, closed.text).toBe(200);
    expect((await statement(june.id)).actions).toContain("reissue");
  });

  it("reissues a corrected version with the same number; the old one is kept and replaced; the doctor is clean", async () => {
    const answer = await owner.post(`/api/statements/${june.id}/reissue/`);
    expect(answer.status, answer.text).toBe(201);
    const corrected = statementDetailSchema.parse(answer.body);
    expect(corrected).toMatchObject({
      statement_num: june.statement_num,
      statement_date: JUNE,
      version: 2,
      corrected_on: businessToday(),
      replaced_by: null,
      proves: true,
      previous_balance: june.previous_balance,
      charges: "47.50",
      new_balance: "47.50",
    });
    expect(corrected.transactions.map((line) => line.amount).sort()).toEqual(["40.00", "7.50"]);
    const old = await statement(june.id);
    expect(old).toMatchObject({ version: 1, replaced_by: corrected.id, new_balance: "40.00", proves: true });
    expect(old.actions).toEqual(["pdf"]);
    expect(old.transactions).toEqual([]);

    expect(await statementMismatches(testApp.db, { clientId })).toEqual([]);
    expect(await ledgerMismatches(testApp.db, { clientId })).toEqual([]);
    expect(await notProving()).toEqual([]);
    // The next period starts from the corrected statement.
    const [figures] = await queryRows(
      testApp.db,
      sql`select previous_balance::text as previous_balance from customers where client_id = ${clientId} and id = ${customerId}`,
      z.object({ previous_balance: dbDecimal }),
    );
    expect(figures?.previous_balance).toBe("47.50");

    // Nothing left to correct, and the old version is not worked on.
    expect((await owner.post(`/api/statements/${corrected.id}/reissue/`)).text).toContain(
      "still proves itself",
    );
    const again = await owner.post(`/api/statements/${june.id}/reissue/`);
    expect(again.status).toBe(400);
    expect(again.text).toContain("replaced by its corrected version");
    // The trail names the correction.
    const [trail] = await queryRows(
      testApp.db,
      sql`select count(*)::int as id from audit_events where client_id = ${clientId} and action = 'statement.reissue'`,
      idRowSchema,
    );
    expect(trail?.id).toBe(1);
  });

  it("prints Corrected and the day on the new version's PDF, not on the old one's", async () => {
    const corrected = (await statement(june.id)).replaced_by ?? 0;
    const pdf = async (id: number) => {
      const response = await fetch(`${testApp.baseUrl}/api/statements/${id}/pdf/`, {
        headers: { authorization: `Bearer ${fixture.a.ownerToken}` },
      });
      expect(response.status).toBe(200);
      return pdfText(new Uint8Array(await response.arrayBuffer()));
    };
    const text = await pdf(corrected);
    expect(text).toContain(`CORRECTED STATEMENT · issued ${usDate(businessToday())}`);
    expect(text).toContain(String(june.statement_num));
    expect(text).toContain("$47.50");
    expect(await pdf(june.id)).not.toContain("CORRECTED");
  });
});

describe("resending and reprinting one statement", () => {
  it("emails it once per press, each press its own went_out claim; the run can no longer be undone", async () => {
    const corrected = (await statement(june.id)).replaced_by ?? 0;
    const before = await mailTo(EMAIL);
    const first = await owner.post(`/api/statements/${corrected}/resend_email/`);
    expect(first.status, first.text).toBe(201);
    expect(statementResendSchema.parse(first.body)).toMatchObject({ channel: "email", status: "sent" });
    expect(await mailTo(EMAIL)).toBe(before + 1);
    const second = await owner.post(`/api/statements/${corrected}/resend_email/`);
    expect(second.status).toBe(201);
    expect(await mailTo(EMAIL)).toBe(before + 2);
    const mail = await testApp.mail.lastTo(EMAIL);
    expect(mail.attachments).toHaveLength(1);
    const claims = await queryRows(
      testApp.db,
      sql`select id from went_out where client_id = ${clientId} and kind = 'email' and statement_id = ${corrected}
            and ref like 'resend-%' and state = 'done'`,
      idRowSchema,
    );
    expect(claims).toHaveLength(2);
    expect((await statement(corrected)).resends.map((row) => row.status)).toEqual(["sent", "sent"]);
    // The replaced version is not sent again.
    const old = await owner.post(`/api/statements/${june.id}/resend_email/`);
    expect(old.status).toBe(400);
  });

  it("queues it for the next pool once, and the next run's pool prints it once", async () => {
    const corrected = (await statement(june.id)).replaced_by ?? 0;
    const queued = await owner.post(`/api/statements/${corrected}/add_to_pool/`);
    expect(queued.status, queued.text).toBe(201);
    expect(statementResendSchema.parse(queued.body)).toMatchObject({
      channel: "pool",
      status: "queued",
      pool: null,
    });
    const twice = await owner.post(`/api/statements/${corrected}/add_to_pool/`);
    expect(twice.status).toBe(400);
    expect(twice.text).toContain("already waiting for the next print pool");
    const record = await statement(corrected);
    expect(record.queued_for_pool).toBe(true);
    expect(record.actions).not.toContain("add_to_pool");

    const run = await runProductionCycle(admin, CYCLE, { run_date: JULY, client_ids: [clientId] });
    expect(run.status).toBe("done");
    const pools = await pollUntil(
      async () =>
        poolPageSchema.parse(
          (await admin.get("/api/pools/", { client_id: clientId, production_run_id: run.id })).body,
        ).results,
      (list: PoolRecord[]) => list.length > 0 && list.every((pool) => pool.state !== "building"),
      60_000,
    );
    const mailPool = pools.find((pool) => pool.fulfilment === "mail");
    if (!mailPool) throw new Error("no mail pool");
    const zip = await fetch(`${testApp.baseUrl}/api/dailyproduction/download/pool/${mailPool.pool_name}/`, {
      headers: { authorization: `Bearer ${fixture.adminToken}` },
    });
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const manifest = strFromU8(files[`${mailPool.pool_name}-manifest.csv`] ?? new Uint8Array()).split("\r\n");
    // The July statement of Rita, and the June one's corrected reprint: each once.
    const rita = manifest.filter((line) => line.includes("Rita Reissue"));
    expect(rita).toHaveLength(2);
    expect(rita.filter((line) => line.includes(`,${june.statement_num},`))).toHaveLength(1);
    const text = await pdfText(files[`${mailPool.pool_name}.pdf`] ?? new Uint8Array());
    expect(text.split("CORRECTED STATEMENT").length - 1).toBe(1);
    const after = await statement(corrected);
    expect(after.queued_for_pool).toBe(false);
    expect(after.resends.find((row) => row.channel === "pool")).toMatchObject({
      status: "sent",
      pool: mailPool.id,
    });
    // The July statement starts from the corrected balance: the doctor is clean.
    expect(await statementMismatches(testApp.db, { clientId })).toEqual([]);
  });

  it("keeps the June run from being undone once a statement of it was corrected and resent", async () => {
    const [part] = await queryRows(
      testApp.db,
      sql`select r.cycle_run_id as id from production_runs r join statements s
            on s.client_id = r.client_id and s.production_run_id = r.id
          where s.client_id = ${clientId} and s.id = ${june.id}`,
      idRowSchema,
    );
    const undo = await admin.post(`/api/productionruns/${part?.id ?? 0}/undo/`, undefined, {
      client_id: clientId,
    });
    expect(undo.status).toBe(409);
    expect(undo.text).toContain("reissued as corrected");
  });
});
