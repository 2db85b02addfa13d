import { publicPaymentInfoSchema } from "@cyclebill/domain";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { clients, codes, customers, recurringCharges, statements } from "../../db/tables.js";
import { pollUntil } from "../../test-support/poll-until.js";
import { monthlyCharge } from "../../test-support/ledger-rows.js";
import { runProductionCycle } from "../../test-support/production-app.js";
import { luhnCard, storeCardOnFile } from "../../test-support/stored-cards.js";
import {
  GATEWAY_ACCOUNT_A,
  customerWithStatement,
  usePaymentFixture,
} from "../../test-support/payment-fixture.js";
import { TEST_MAILING_ADDRESS } from "../../test-support/mailing-address.js";
import type { ApiClient } from "../../test-support/test-app.js";

// Issue 28 point 3: a statement's pay page shows what that statement said. An old statement that
// announced no autopay asks to be paid, whatever the customer's autopay today; an autopay
// statement shows its notice while its charge stands, and asks for the amount due once the charge
// was declined. Fixed 2025 run date (its autopay charge date is past, so the card run runs at once).
const CYCLE = 16;
const RUN_DATE = "2025-04-16";

const fixture = usePaymentFixture({ jobs: { chunkSize: 10 } });
let admin: ApiClient;
let anonymous: ApiClient;
let clientId: number;
let cardIndex = 0;

function nextCard(): string {
  cardIndex += 1;
  return luhnCard("5", cardIndex + 500);
}

/** Stores a card as the staff form does (a $0.00 AUTH whose TRANS_ID is the token) and turns autopay on. */
async function storeCardWithAutopay(customerId: number): Promise<void> {
  await storeCardOnFile(
    fixture.testApp.db,
    { url: fixture.sandbox.bp20postUrl, account: GATEWAY_ACCOUNT_A },
    { clientId, customerId },
    nextCard(),
  );
  await fixture.testApp.db
    .update(customers)
    .set({ autopayFlag: true })
    .where(and(eq(customers.clientId, clientId), eq(customers.id, customerId)));
}

async function payPage(token: string) {
  const response = await anonymous.post("/api/payments/get-payment-info/", { statementId: token });
  expect(response.status, response.text).toBe(200);
  return publicPaymentInfoSchema.parse(response.body);
}

beforeAll(() => {
  admin = fixture.testApp.client(fixture.tenants.adminToken);
  anonymous = fixture.testApp.client();
  clientId = fixture.tenants.a.clientId;
});

describe("a statement's pay page and autopay", () => {
  it("an old statement that announced no autopay asks for its amount due after autopay is turned on", async () => {
    const { customerId, token } = await customerWithStatement(fixture.testApp, clientId, "42.00");
    await storeCardWithAutopay(customerId);
    const info = await payPage(token);
    // Before: the current autopay notice ("will be charged … Nothing to pay") and no form.
    expect(info.statement?.autopay_notice).toBeNull();
    expect(info.statement?.amount_due).toBe("42.00");
    expect(info.amount).toBe("42.00");
  });

  it("an autopay statement shows its notice while the charge stands, and the amount due once it was declined", async () => {
    const db = fixture.testApp.db;
    await db.update(clients).set({ normalCycle: CYCLE }).where(eq(clients.id, clientId));
    const [code] = await db
      .insert(codes)
      .values({ clientId, code: 110, description: "Monthly", codeType: "charge" })
      .returning({ id: codes.id });
    const made: Record<string, number> = {};
    // The sandbox in TEST mode approves odd dollars and declines even ones.
    for (const [no, name, amount] of [
      [8101, "approved", "31.00"],
      [8102, "declined", "30.00"],
    ] as const) {
      const [row] = await db
        .insert(customers)
        .values({ clientId, customerNo: no, customerName: `Autopay ${name}`, ...TEST_MAILING_ADDRESS })
        .returning({ id: customers.id });
      made[name] = row!.id;
      await db.insert(recurringCharges).values(
        monthlyCharge({ clientId, customerId: row!.id, codeId: code!.id }, amount, {
          description: "Monthly",
          createdAt: new Date("2025-01-01T12:00:00Z"),
        }),
      );
      await storeCardWithAutopay(row!.id);
    }
    const run = await runProductionCycle(
      admin,
      CYCLE,
      { run_date: RUN_DATE, client_ids: [clientId] },
      90_000,
    );
    expect(run.status).toBe("done");
    const tokenOf = async (customerId: number) => {
      const [row] = await db
        .select({
          payCode: statements.payCode,
          method: statements.autopayMethod,
          date: statements.autopayChargeDate,
        })
        .from(statements)
        .where(and(eq(statements.clientId, clientId), eq(statements.customerId, customerId)));
      expect(row?.method).toMatch(/ending \d{4}$/);
      expect(row?.date && row.date > RUN_DATE).toBe(true);
      return { token: `${clientId}-${row!.payCode}`, date: row!.date! };
    };
    const { token: approvedToken, date } = await tokenOf(made.approved!);
    const { token: declinedToken } = await tokenOf(made.declined!);
    const [year, month, day] = date.split("-");
    // The card run charges on the announced date (past): wait until both answers are in.
    await pollUntil(
      async () => (await payPage(declinedToken)).statement?.autopay_notice ?? null,
      (notice) => notice === null,
      90_000,
    );
    const declined = await payPage(declinedToken);
    expect(declined.statement).toMatchObject({ amount_due: "30.00", autopay_notice: null });
    expect(declined.amount).toBe("30.00");

    const approved = await payPage(approvedToken);
    expect(approved.statement?.autopay_notice).toMatch(
      /^Autopay: \$31\.00 will be charged to your .+ ending \d{4} on /,
    );
    expect(approved.statement?.autopay_notice).toContain(`on ${month}/${day}/${year}. Nothing to pay.`);
    // Charged, it stays what the statement said even after autopay is turned off.
    await db.update(customers).set({ autopayFlag: false }).where(eq(customers.id, made.approved!));
    expect((await payPage(approvedToken)).statement?.autopay_notice).toBe(approved.statement?.autopay_notice);
  }, 200_000);
});
