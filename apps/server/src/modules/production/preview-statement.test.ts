import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { recurringCharges } from "../../db/tables.js";
import { monthlyCharge, postInOneTransaction, serviceCharge } from "../../test-support/ledger-rows.js";
import { clientId, fixture, testApp, useProductionApp } from "../../test-support/production-app.js";
import { createCodes } from "../../test-support/test-codes.js";
import { insertCustomer } from "../../test-support/test-customers.js";

// The preview statement PDF of one customer: drawn from the preview's plan, nothing written.
const CYCLE = 11;
const RUN_DATE = "2025-06-11";

let customerId: number;

useProductionApp({
  client: {
    normalCycle: CYCLE,
    dateLastBilling: "2025-05-11",
    financeFlag: "1",
    thirtyDayRateOrPercent: "rate",
    dayCharge30Day: "5.00",
  },
});

beforeAll(async () => {
  const { charge: codeId } = await createCodes(testApp.db, clientId, { charge: "charge" });
  customerId = await insertCustomer(testApp.db, {
    clientId,
    customerNo: 700,
    customerName: "Preview Customer",
    address1: "1 Elm St",
  });
  await testApp.db.insert(recurringCharges).values(monthlyCharge({ clientId, customerId, codeId }, "25.00"));
  await postInOneTransaction(testApp.db, clientId, [
    serviceCharge(customerId, codeId, "100.00", "2025-04-20"),
  ]);
});

const written = async () =>
  (
    await queryRows(
      testApp.db,
      sql`select (select count(*)::int from transactions where client_id = ${clientId}) as entries,
                 (select count(*)::int from statements where client_id = ${clientId}) as statements`,
      z.object({ entries: dbInt, statements: dbInt }),
    )
  )[0];

describe("preview statement PDF", () => {
  it("draws the statement a run would produce, writes nothing, admins only", async () => {
    const before = await written();
    const path = `/api/dailyproduction/client/${clientId}/customers/${customerId}/pdf/?run_date=${RUN_DATE}`;
    const response = await fetch(`${testApp.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${fixture.adminToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain(
      `filename="Statement preview 700 ${RUN_DATE}.pdf"`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(await written()).toEqual(before);

    for (const token of [fixture.a.ownerToken, fixture.a.staffToken])
      expect((await testApp.client(token).get(path)).status).toBe(403);
    const otherClient = `/api/dailyproduction/client/${fixture.b.clientId}/customers/${customerId}/pdf/`;
    expect((await testApp.client(fixture.adminToken).get(otherClient, { run_date: RUN_DATE })).status).toBe(
      404,
    );
  });
});
