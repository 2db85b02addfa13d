import { clientDocumentSchema, publicPaymentInfoSchema, statementPayToken } from "@cyclebill/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { customerPaymentMethods, customers, statements } from "../../db/tables.js";
import { createStatement } from "../statements/create-statement.js";
import { usePaymentFixture } from "../../test-support/payment-fixture.js";
import { createCodes } from "../../test-support/test-codes.js";
import { insertCustomer } from "../../test-support/test-customers.js";
import type { ApiClient } from "../../test-support/test-app.js";

// Issue 38 point 2: one amount due. The pay page (its figure and its form) and the documents list
// answer the same amount for the same statement: after an autopay that has not paid, after a credit
// statement and new charges, after a payment since. Fixed 2025 dates: passes on any day.

const fixture = usePaymentFixture({});
let staff: ApiClient;
let anonymous: ApiClient;
let clientId: number;
let codes: { charge: number; payment: number };
let customerNo = 3820;

beforeAll(async () => {
  staff = fixture.testApp.client(fixture.tenants.a.staffToken);
  anonymous = fixture.testApp.client();
  clientId = fixture.tenants.a.clientId;
  codes = await createCodes(fixture.testApp.db, clientId, { charge: "charge", payment: "payment" });
});

async function post(customer: number, kind: "charge" | "payment", rate: string, serviceDate: string) {
  const posted = await staff.post("/api/transactions/", { customer, code: codes[kind], rate, serviceDate });
  expect(posted.status, posted.text).toBe(201);
}

async function customerWith(entries: [kind: "charge" | "payment", rate: string, date: string][]) {
  customerNo += 1;
  const customerId = await insertCustomer(fixture.testApp.db, {
    clientId,
    customerNo,
    customerName: `Due ${customerNo}`,
    lastName: `Due${customerNo}`,
    openDate: "2025-01-01",
  });
  for (const [kind, rate, date] of entries) await post(customerId, kind, rate, date);
  return customerId;
}

/** What each screen says is due on the statement: the pay page's figure and form, the documents list. */
async function dueEverywhere(statementId: number, customerId: number) {
  const [statement] = await fixture.testApp.db
    .select({ payCode: statements.payCode })
    .from(statements)
    .where(and(eq(statements.clientId, clientId), eq(statements.id, statementId)));
  const page = await anonymous.post("/api/payments/get-payment-info/", {
    statementId: statementPayToken(clientId, statement?.payCode ?? ""),
  });
  expect(page.status, page.text).toBe(200);
  const info = publicPaymentInfoSchema.parse(page.body);
  const list = await staff.get("/api/invoices-and-statements/", { customer_id: customerId, limit: 50 });
  expect(list.status, list.text).toBe(200);
  const row = (list.body as { results: unknown[] }).results
    .map((result) => clientDocumentSchema.parse(result))
    .find((result) => result.document === "statement" && result.id === statementId);
  return {
    page: info.statement?.amount_due,
    form: info.amount,
    list: row?.amount_due,
    overdue: row?.overdue,
  };
}

describe("one amount due on every screen", () => {
  it("an autopay customer's statement nobody has charged yet is due, and overdue past its due date", async () => {
    const customerId = await customerWith([["charge", "60.00", "2025-05-02"]]);
    await fixture.testApp.db.insert(customerPaymentMethods).values({
      clientId,
      customerId,
      kind: "card",
      token: "100000000381",
      mask: "xxxxxxxxxxxx1111",
      cardType: "VISA",
      expiry: "1230",
    });
    await fixture.testApp.db
      .update(customers)
      .set({ autopayFlag: true })
      .where(and(eq(customers.clientId, clientId), eq(customers.id, customerId)));
    const statement = await createStatement(
      fixture.testApp.db,
      { clientId },
      { customerId, statementDate: "2025-05-31" },
    );
    expect(await dueEverywhere(statement.id, customerId)).toEqual({
      page: "60.00",
      form: "60.00",
      list: "60.00",
      overdue: true,
    });
  });

  it("a credit statement followed by new charges: nothing is due on the statement, anywhere", async () => {
    const customerId = await customerWith([
      ["charge", "20.00", "2025-05-02"],
      ["payment", "45.00", "2025-05-10"],
    ]);
    const statement = await createStatement(
      fixture.testApp.db,
      { clientId },
      { customerId, statementDate: "2025-05-31" },
    );
    expect(statement.newBalance).toBe("-25.00");
    await post(customerId, "charge", "60.00", "2025-06-05");
    expect(await dueEverywhere(statement.id, customerId)).toEqual({
      page: "0.00",
      form: "0.00",
      list: "0.00",
      overdue: false,
    });
  });

  it("a payment since the statement lowers what is due, alike everywhere", async () => {
    const customerId = await customerWith([["charge", "80.00", "2025-05-02"]]);
    const statement = await createStatement(
      fixture.testApp.db,
      { clientId },
      { customerId, statementDate: "2025-05-31" },
    );
    await post(customerId, "payment", "30.00", "2025-06-03");
    expect(await dueEverywhere(statement.id, customerId)).toEqual({
      page: "50.00",
      form: "50.00",
      list: "50.00",
      overdue: true,
    });
  });
});
