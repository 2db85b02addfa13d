import { and, eq, isNotNull } from "drizzle-orm";
import { productionClientPreviewSchema } from "@cyclebill/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { customers, statements } from "../../db/tables.js";
import { postInOneTransaction, serviceCharge } from "../../test-support/ledger-rows.js";
import { TEST_MAILING_ADDRESS } from "../../test-support/mailing-address.js";
import {
  admin,
  clientId,
  runProductionCycle,
  testApp,
  useProductionApp,
} from "../../test-support/production-app.js";
import { createCodes } from "../../test-support/test-codes.js";

// Customers saved before the address rule may lack an address: a statement that cannot be
// delivered as its flags say is held back (no statement, no pool, no email), listed with why.
const CYCLE = 11;
const RUN_DATE = "2025-06-11";

const ids: Record<string, number> = {};

useProductionApp({
  chunkSize: 2,
  client: { normalCycle: CYCLE, dateLastBilling: "2025-05-11" },
  otherCycle: 28,
});

beforeAll(async () => {
  const { charge } = await createCodes(testApp.db, clientId, { charge: "charge" });
  const add = async (no: number, name: string, fields: Partial<typeof customers.$inferInsert>) => {
    const [row] = await testApp.db
      .insert(customers)
      .values({ clientId, customerNo: no, customerName: name, lastName: name, ...fields })
      .returning({ id: customers.id });
    ids[name] = row?.id ?? 0;
  };
  await add(31, "Company only", { pullFlag: "A" });
  await add(32, "Short zip", { pullFlag: "A", ...TEST_MAILING_ADDRESS, zip: "627" });
  await add(33, "No email", { pullFlag: "E", ...TEST_MAILING_ADDRESS });
  await add(34, "Mailable", { pullFlag: "A", ...TEST_MAILING_ADDRESS });
  await postInOneTransaction(
    testApp.db,
    clientId,
    ["Company only", "Short zip", "No email", "Mailable"].map((name) =>
      serviceCharge(ids[name]!, charge, "20.00", "2025-06-01"),
    ),
  );
});

describe("a statement that cannot be delivered", () => {
  it("is listed in the preview under cannot deliver, with why", async () => {
    const response = await admin.get(`/api/dailyproduction/client/${clientId}/`, { run_date: RUN_DATE });
    expect(response.status).toBe(200);
    const preview = productionClientPreviewSchema.parse(response.body);
    const row = (name: string) => preview.results.find((customer) => customer.customer_id === ids[name]);
    expect(row("Company only")).toMatchObject({
      statement: false,
      delivery: null,
      no_statement_reason: "no_mailing_address",
    });
    expect(row("Company only")?.no_statement_label).toBe(
      "Cannot deliver: no valid mailing address (Address line 1 required; City required; State required; Must be 5 digits)",
    );
    expect(row("Short zip")).toMatchObject({ no_statement_reason: "no_mailing_address" });
    expect(row("No email")).toMatchObject({
      no_statement_reason: "no_email_address",
      no_statement_label: "Cannot deliver: no email address (The customer has no email address.)",
    });
    expect(row("Mailable")).toMatchObject({ statement: true, delivery: "mail" });
    expect(preview.figures.no_statement).toMatchObject({ no_mailing_address: 2, no_email_address: 1 });
  });

  it("is not made, pooled or emailed by the run, which records it as such", async () => {
    const run = await runProductionCycle(admin, CYCLE, { run_date: RUN_DATE });
    expect(run.status).toBe("done");
    const part = run.clients.find((client) => client.client_id === clientId);
    expect(part?.figures?.no_statement).toMatchObject({ no_mailing_address: 2, no_email_address: 1 });
    const made = await testApp.db
      .select({ customerId: statements.customerId, poolId: statements.poolId })
      .from(statements)
      .where(eq(statements.clientId, clientId));
    const madeFor = made.map((row) => row.customerId);
    for (const name of ["Company only", "Short zip", "No email"]) expect(madeFor).not.toContain(ids[name]);
    expect(madeFor).toContain(ids["Mailable"]);
    const pooled = await testApp.db
      .select({ customerId: statements.customerId })
      .from(statements)
      .where(and(eq(statements.clientId, clientId), isNotNull(statements.poolId)));
    expect(pooled.map((row) => row.customerId)).not.toContain(ids["Company only"]);
    expect(part?.emails.total).toBe(0);
  });
});
