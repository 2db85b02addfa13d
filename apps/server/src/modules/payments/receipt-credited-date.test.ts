import { addDays, usDate } from "@cyclebill/domain";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businessToday } from "../../clock.js";
import { clients, customers } from "../../db/tables.js";
import {
  cardPayment,
  customerWithStatement,
  makePayment,
  usePaymentFixture,
} from "../../test-support/payment-fixture.js";
import { pollUntil } from "../../test-support/poll-until.js";

// Issue 41 point 3: on a day whose statements are already made (the books closed through today by
// a same-day run), a payment is credited on the first open day. The receipt said only "today"
// while the account showed the payment dated tomorrow; it now says both.

const fixture = usePaymentFixture({ jobs: {}, freshLimits: true });

describe("a receipt after a same-day run", () => {
  it("names the day the payment is credited to the account", async () => {
    const { clientId } = fixture.tenants.a;
    const { customerId, token } = await customerWithStatement(fixture.testApp, clientId, "45.00");
    const email = `credited-${Date.now()}@example.com`;
    await fixture.testApp.db.update(customers).set({ email }).where(eq(customers.id, customerId));
    const today = businessToday();
    // What a run dated today leaves: the books closed through today.
    await fixture.testApp.db
      .update(clients)
      .set({ booksClosedThrough: today })
      .where(eq(clients.id, clientId));
    const paid = await makePayment(fixture.testApp, cardPayment(token, "21.00"), "credited-1");
    expect(paid.body, JSON.stringify(paid.body)).toMatchObject({ approved: true });
    const mail = await pollUntil(
      () => Promise.resolve(fixture.testApp.mail.messages.filter((message) => message.to === email)),
      (found) => found.length > 0,
      30_000,
    );
    const text = mail[0]?.text ?? "";
    expect(text).toContain(`Date: ${usDate(today)}`);
    expect(text).toContain(`Credited to your account: ${usDate(addDays(today, 1))}`);
    expect(text).toContain("shows on your next statement");
  });
});
