import type { ExpiringCardsPage } from "@cyclebill/domain";
import { and, eq } from "drizzle-orm";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentClock, setClock } from "../../clock.js";
import { clients, customerPaymentMethods, customers, statements } from "../../db/tables.js";
import { customerWithStatement, usePaymentFixture } from "../../test-support/payment-fixture.js";
import { createMailer } from "../mail/mailer.js";
import { queueExpiringCardNotices, sendExpiringCardNotices } from "./expiring-cards.js";

// Issue 37: cards on file that expire before the customer's next charge are listed for the owner
// (GET /api/payment-methods/expiring/) and the customer is emailed once per card, however often
// the daily job runs. On a fixed day, so the expiry months mean the same on any date.

const fixture = usePaymentFixture();
const realClock = currentClock();
const TODAY = "2031-03-10";

beforeAll(() => setClock({ now: () => new Date(`${TODAY}T15:00:00Z`) }));
afterAll(() => setClock(realClock));

/** A customer of the client with a stored method (as the gateway left it) and maybe an email. */
async function customerWithCard(
  clientId: number,
  method: { kind?: "card" | "ach"; expiry: string; last4: string },
  email = "",
): Promise<{ customerId: number; statementId: number }> {
  const made = await customerWithStatement(fixture.testApp, clientId, "20.00");
  await fixture.testApp.db
    .update(customers)
    .set({ email, autopayFlag: true })
    .where(and(eq(customers.clientId, clientId), eq(customers.id, made.customerId)));
  await fixture.testApp.db.insert(customerPaymentMethods).values({
    clientId,
    customerId: made.customerId,
    kind: method.kind ?? "card",
    token: `1000${method.last4}${made.customerId}`,
    mask: method.kind === "ach" ? `C:123456780:xxxx${method.last4}` : `xxxxxxxxxxxx${method.last4}`,
    cardType: method.kind === "ach" ? "" : "VISA",
    expiry: method.kind === "ach" ? "" : method.expiry,
  });
  return made;
}

describe("cards on file expiring before the next charge", () => {
  it("lists them for the owner, paged, and emails each customer once per card", async () => {
    const { a, b } = fixture.tenants;
    // Last billed on the 1st: the next cycle is 2031-04-01, charged 30 days on (2031-05-01).
    await fixture.testApp.db
      .update(clients)
      .set({ dateLastBilling: "2031-03-01", termsMessage: "" })
      .where(eq(clients.id, a.clientId));
    const stamp = Date.now();
    const expiring = await customerWithCard(
      a.clientId,
      { expiry: "0431", last4: "4431" },
      `exp-${stamp}@example.com`,
    );
    const noEmail = await customerWithCard(a.clientId, { expiry: "0231", last4: "0231" });
    await customerWithCard(a.clientId, { expiry: "0531", last4: "5531" }, `fine-${stamp}@example.com`);
    await customerWithCard(
      a.clientId,
      { kind: "ach", expiry: "", last4: "6789" },
      `ach-${stamp}@example.com`,
    );
    // Its statement announced autopay on the 15th: the card (good through March) is charged in time.
    const announced = await customerWithCard(
      a.clientId,
      { expiry: "0331", last4: "3331" },
      `ann-${stamp}@example.com`,
    );
    await fixture.testApp.db
      .update(statements)
      .set({ autopayChargeDate: "2031-03-15", autopayMethod: "VISA ending 3331" })
      .where(eq(statements.id, announced.statementId));
    const otherClient = await customerWithCard(
      b.clientId,
      { expiry: "0431", last4: "9431" },
      `b-${stamp}@example.com`,
    );

    const owner = fixture.testApp.client(a.ownerToken);
    const listed = await owner.get("/api/payment-methods/expiring/");
    expect(listed.status).toBe(200);
    const page = listed.body as ExpiringCardsPage;
    expect(page.count).toBe(2);
    expect(
      page.results.map((card) => [card.customer_id, card.expiry, card.next_charge_on, card.notified_at]),
    ).toEqual([
      [noEmail.customerId, "0231", "2031-05-01", null],
      [expiring.customerId, "0431", "2031-05-01", null],
    ]);
    const paged = (await owner.get("/api/payment-methods/expiring/", { limit: 1, offset: 1 }))
      .body as ExpiringCardsPage;
    expect(paged).toMatchObject({ count: 2, results: [{ customer_id: expiring.customerId }] });
    // Another client's staff see only their own; a foreign client id is refused.
    const otherList = (await fixture.testApp.client(b.staffToken).get("/api/payment-methods/expiring/"))
      .body as ExpiringCardsPage;
    expect(otherList.results.map((card) => card.customer_id)).toEqual([otherClient.customerId]);
    const foreign = await fixture.testApp.client(b.staffToken).get("/api/payment-methods/expiring/", {
      client_id: a.clientId,
    });
    expect([403, 404]).toContain(foreign.status);

    // The daily job, twice (a replay, the next day's run): one email per card, to those with an address.
    // The mail module's outbox (no SMTP_URL): each message an .eml file.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "cyclebill-expiring-"));
    const mailer = createMailer({ smtpUrl: null, dataDir, log: pino({ level: "silent" }) });
    for (let run = 0; run < 2; run++) {
      await queueExpiringCardNotices(fixture.testApp.db);
      await sendExpiringCardNotices(fixture.testApp.db, mailer);
    }
    const mine = await Promise.all(
      readdirSync(path.join(dataDir, "outbox")).map((file) =>
        PostalMime.parse(readFileSync(path.join(dataDir, "outbox", file))),
      ),
    );
    expect(mine.map((message) => message.to?.[0]?.address).sort()).toEqual([
      `b-${stamp}@example.com`,
      `exp-${stamp}@example.com`,
    ]);
    const mail = mine.find((message) => message.to?.[0]?.address === `exp-${stamp}@example.com`);
    expect(mail?.subject).toContain("your card on file expires before your next payment");
    expect(mail?.text).toContain("VISA ending 4431");
    expect(mail?.text).toContain("expires 04/31, before your next payment on 05/01/2031");
    const after = (await owner.get("/api/payment-methods/expiring/")).body as ExpiringCardsPage;
    expect(after.results.find((card) => card.customer_id === expiring.customerId)?.notified_at).toMatch(
      /^\d{4}-/,
    );
    expect(after.results.find((card) => card.customer_id === noEmail.customerId)?.notified_at).toBeNull();
  });
});
