import { jobRunSchema, type JobRun } from "@cyclebill/domain";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbText } from "../../db/row-schemas.js";
import { clients, statements } from "../../db/tables.js";
import { postInOneTransaction, serviceCharge } from "../../test-support/ledger-rows.js";
import { cardPayment, makePayment, usePaymentFixture } from "../../test-support/payment-fixture.js";
import { pollUntil } from "../../test-support/poll-until.js";
import { runProductionCycle } from "../../test-support/production-app.js";
import type { ApiClient } from "../../test-support/test-app.js";
import { createCodes } from "../../test-support/test-codes.js";
import { insertCustomer } from "../../test-support/test-customers.js";

// Issue 40, point 4: a statement paid through its pay link went out, so its run can no longer be
// undone (before: undo withdrew the paid statement, and the receipt named a statement that no
// longer existed); a declined card did not, so undo stays allowed. Opening the pay page counts too.
// The sandbox in TEST mode approves odd dollars and declines even ones.

const CYCLE = 9;
const RUN_DATE = "2025-05-09";

const fixture = usePaymentFixture({ jobs: { chunkSize: 10 }, freshLimits: true });
let admin: ApiClient;
let clientId: number;
let customerId: number;

beforeAll(async () => {
  const { db } = fixture.testApp;
  admin = fixture.testApp.client(fixture.tenants.adminToken);
  clientId = fixture.tenants.a.clientId;
  await db
    .update(clients)
    .set({ normalCycle: CYCLE, dateLastBilling: "2025-04-09" })
    .where(eq(clients.id, clientId));
  const { charge } = await createCodes(db, clientId, { charge: "charge" });
  customerId = await insertCustomer(db, { clientId, customerNo: 900, customerName: "Link Payer" });
  await postInOneTransaction(db, clientId, [serviceCharge(customerId, charge, "50.00", "2025-04-20")]);
});

async function runCycle() {
  const run = await runProductionCycle(admin, CYCLE, { run_date: RUN_DATE, client_ids: [clientId] });
  expect(run.status).toBe("done");
  const [statement] = await fixture.testApp.db
    .select({ payCode: statements.payCode })
    .from(statements)
    .where(and(eq(statements.clientId, clientId), eq(statements.customerId, customerId)));
  if (!statement) throw new Error("no statement");
  return { run, token: `${clientId}-${statement.payCode}` };
}

const askUndo = (runId: number) => admin.post(`/api/productionruns/${runId}/undo/?client_id=${clientId}`);

function waitForJob(id: number): Promise<JobRun> {
  return pollUntil(
    async () => jobRunSchema.parse((await admin.get(`/api/jobs/${id}/`, { client_id: clientId })).body),
    (job) => job.status === "succeeded" || job.status === "failed",
    60_000,
  );
}

const claims = () =>
  queryRows(
    fixture.testApp.db,
    sql`select kind, state from went_out where client_id = ${clientId} order by id`,
    z.object({ kind: dbText, state: dbText }),
  );

describe("undo after a payment through a statement's pay link", () => {
  it("a declined card leaves the run undoable", async () => {
    const { run, token } = await runCycle();
    const paid = await makePayment(fixture.testApp, cardPayment(token, "10.00"), "link-declined");
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ approved: false, status: "declined" });
    expect(await claims()).toEqual([{ kind: "link_payment", state: "refused" }]);
    const asked = await askUndo(run.id);
    expect(asked.status, asked.text).toBe(202);
    expect(await waitForJob(jobRunSchema.parse(asked.body).id)).toMatchObject({ status: "succeeded" });
  });

  it("opening the pay page, then an approved payment, make undo answer 409 naming them", async () => {
    const { run, token } = await runCycle();
    const page = await fixture.testApp
      .client()
      .post("/api/payments/get-payment-info/", { statementId: token });
    expect(page.status, page.text).toBe(200);
    const viewed = await askUndo(run.id);
    expect(viewed.status, viewed.text).toBe(409);
    expect(viewed.body).toMatchObject({ went_out: ["1 statement viewed through its pay link"] });

    const paid = await makePayment(fixture.testApp, cardPayment(token, "11.00"), "link-approved");
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ approved: true });
    const refused = await askUndo(run.id);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toEqual({
      detail:
        "Delivery has started (1 payment through a statement's pay link; 1 statement viewed through its pay link): this run can no longer be undone.",
      went_out: ["1 payment through a statement's pay link", "1 statement viewed through its pay link"],
    });
    expect((await claims()).slice(1)).toEqual([
      { kind: "link_view", state: "claimed" },
      { kind: "link_payment", state: "done" },
    ]);
  });
});
