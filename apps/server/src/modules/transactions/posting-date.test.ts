import { addDays, postingDateSchema } from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { businessToday } from "../../clock.js";
import {
  code,
  customerIds,
  fixture,
  staff,
  testApp,
  useTransactionWorld,
} from "../../test-support/transaction-world.js";

// A file of its own: closing client A's books through today would refuse the other files' postings.
useTransactionWorld();

describe("the add row's date of service", () => {
  it("is today while today is open, and the first open day once a run has closed the books through today", async () => {
    const today = businessToday();
    const read = async () =>
      postingDateSchema.parse((await staff.get("/api/transactions/posting_date/")).body);
    expect(await read()).toEqual({ service_date: today, today });

    // What a same-day run does to the books: closed through today.
    const admin = testApp.client(fixture.adminToken);
    const closed = await admin.post(`/api/clients/${fixture.a.clientId}/closed-period/close/`, {
      closed_through: today,
      reason: "Same-day run",
    });
    expect(closed.status, closed.text).toBe(200);

    const after = await read();
    expect(after).toEqual({ service_date: addDays(today, 1), today });
    // The date it gives is one a manual post takes; today is refused.
    const entry = (serviceDate: string) =>
      staff.post("/api/transactions/", {
        customer: customerIds[0],
        code: code.charge,
        rate: "5",
        serviceDate,
      });
    expect((await entry(today)).status).toBe(400);
    const posted = await entry(after.service_date);
    expect(posted.status, posted.text).toBe(201);
    expect(posted.body).toMatchObject({ serviceDate: after.service_date });

    // Another client's books are not this client's.
    const other = await testApp.client(fixture.b.staffToken).get("/api/transactions/posting_date/");
    expect(postingDateSchema.parse(other.body).service_date).toBe(today);
  });
});
