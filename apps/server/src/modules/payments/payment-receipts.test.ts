import { cardRunStartedSchema, type PaymentAttempt } from "@cyclebill/domain";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { clients, customers, paymentReceipts, users } from "../../db/tables.js";
import {
  MASTERCARD,
  cardPayment,
  customerWithStatement,
  makePayment,
  storedCard,
  usePaymentFixture,
  visaCharge,
} from "../../test-support/payment-fixture.js";
import { pollUntil } from "../../test-support/poll-until.js";
import type { CapturedMail } from "../../test-support/test-smtp.js";
import { PROVIDER_MAIL_ADDRESS } from "../mail/mail-sender.js";
import { startBulkCardRun, type CardRunChunk } from "./start-card-run.js";

// Issue 29 point 6: every approved payment (public page, staff entry, ACH, Process CC, autopay)
// emails a receipt through the mailer, sent by the payment-receipts job; a declined autopay charge
// emails the customer and flags the customer for staff. Mail arrives at a real SMTP server.

const fixture = usePaymentFixture({ jobs: {}, freshLimits: true });
let keyNo = 0;
let emailNo = 0;

const staffA = () => fixture.testApp.client(fixture.tenants.a.staffToken);

function pay(body: unknown, token?: string) {
  return makePayment(fixture.testApp, body, `receipt-${++keyNo}`, token);
}

/** A customer owing `balance`, with an email address of its own. */
async function customerWithEmail(balance: string) {
  const made = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, balance);
  const email = `customer-${++emailNo}-${Date.now()}@example.com`;
  await fixture.testApp.db
    .update(customers)
    .set({ email })
    .where(and(eq(customers.clientId, fixture.tenants.a.clientId), eq(customers.id, made.customerId)));
  return { ...made, email };
}

async function mailTo(address: string, count = 1): Promise<CapturedMail[]> {
  const all = () => fixture.testApp.mail.messages.filter((message) => message.to === address);
  await pollUntil(
    () => Promise.resolve(all().length),
    (found) => found >= count,
    30_000,
  );
  return all();
}

/** The customer's receipt rows as the table holds them. */
function receiptsOf(customerId: number) {
  return fixture.testApp.db
    .select()
    .from(paymentReceipts)
    .where(
      and(
        eq(paymentReceipts.clientId, fixture.tenants.a.clientId),
        eq(paymentReceipts.customerId, customerId),
      ),
    );
}

async function attemptsOf(customerId: number): Promise<PaymentAttempt[]> {
  const response = await staffA().get("/api/payment-attempts/", { customer_id: customerId });
  return (response.body as { results: PaymentAttempt[] }).results;
}

const staffPay = (customerId: number, body: Record<string, unknown>) =>
  pay({ customer_id: customerId, ...body }, fixture.tenants.a.staffToken);

async function storeCard(customerId: number, autoPay = false, ccNum = MASTERCARD): Promise<void> {
  const stored = await staffPay(customerId, storedCard({ ccNum, autoPay }));
  expect(stored.body).toMatchObject({ approved: true });
}

/** Every payment-receipts job is over (none waiting, running or to retry): only then is "once" proved. */
async function receiptJobsDone(): Promise<void> {
  await pollUntil(
    async () =>
      (
        await queryRows(
          fixture.testApp.db,
          sql`select count(*)::int as left from pgboss.job
              where name = 'payment-receipts' and state in ('created', 'retry', 'active')`,
          z.object({ left: dbInt }),
        )
      )[0]?.left,
    (left) => left === 0,
    30_000,
  );
}

describe("payment receipts", () => {
  it("the public page's payment emails the payer a receipt with amount, mask, date, transaction, statement and balance", async () => {
    const { customerId, token, email } = await customerWithEmail("45.00");
    const payer = `payer-${Date.now()}@example.com`;
    const paid = await pay(cardPayment(token, "21.00", { email: payer }));
    expect(paid.body).toMatchObject({ approved: true, account_balance: "24.00" });
    const [receipt] = await mailTo(payer);
    const [attempt] = await attemptsOf(customerId);
    expect(receipt?.subject).toContain("payment receipt for $21.00");
    for (const part of [receipt?.text ?? "", receipt?.html ?? ""]) {
      expect(part).toContain("$21.00");
      expect(part).toContain("ending in 1111");
      expect(part).toContain(attempt?.gateway_trans_id ?? "missing");
      expect(part).toContain("$24.00");
      expect(part).toMatch(/Statement/);
      expect(part).toContain("01/31/2026");
    }
    expect(receipt?.text).toMatch(/Date: \d{2}\/\d{2}\/\d{4}/);
    expect(receipt?.messageId).toMatch(/payment-receipt-/);
    // Recorded and shown with the attempt on the customer's payments tab.
    const shown = await pollUntil(
      () => attemptsOf(customerId),
      (list) => list[0]?.receipt?.status === "sent",
      10_000,
    );
    expect(shown[0]?.receipt).toMatchObject({ kind: "receipt", status: "sent", recipient: payer });
    expect(fixture.testApp.mail.messages.filter((message) => message.to === email)).toEqual([]);
  });

  it("a staff card payment and an ACH payment each email the customer", async () => {
    const { customerId, email } = await customerWithEmail("60.00");
    const card = await staffPay(customerId, visaCharge("11.00"));
    expect(card.body).toMatchObject({ approved: true });
    const ach = await staffPay(customerId, {
      paymentMethod: "check",
      checkRoutingNum: "021000021",
      checkAccountNum: "123456789",
      amount: "13.00",
    });
    expect(ach.body).toMatchObject({ approved: true, account_balance: "36.00" });
    const mails = await mailTo(email, 2);
    expect(mails.map((mail) => mail.subject).sort()).toEqual([
      expect.stringContaining("$11.00"),
      expect.stringContaining("$13.00"),
    ]);
    const achMail = mails.find((mail) => mail.subject.includes("$13.00"));
    expect(achMail?.text).toContain("Bank account ending in 6789");
    expect(achMail?.text).toContain("Balance after this payment: $36.00");
  });

  it("a declined payment sends nothing, and the receipt is sent once however often the job runs", async () => {
    const { customerId, email } = await customerWithEmail("40.00");
    const declined = await staffPay(customerId, visaCharge("10.00"));
    expect(declined.body).toMatchObject({ approved: false });
    const approved = await staffPay(customerId, visaCharge("9.00"));
    expect(approved.body).toMatchObject({ approved: true });
    await mailTo(email);
    for (let again = 0; again < 3; again += 1)
      await fixture.testApp.jobs?.enqueue("payment-receipts", { clientId: fixture.tenants.a.clientId });
    // Every run of the job is over (none waiting, running or to retry): only then is "once" proved.
    await pollUntil(
      async () =>
        (
          await queryRows(
            fixture.testApp.db,
            sql`select count(*)::int as left from pgboss.job
                where name = 'payment-receipts' and state in ('created', 'retry', 'active')`,
            z.object({ left: dbInt }),
          )
        )[0]?.left,
      (left) => left === 0,
      30_000,
    );
    expect(fixture.testApp.mail.messages.filter((message) => message.to === email)).toHaveLength(1);
    const rows = await receiptsOf(customerId);
    expect(rows.map((row) => [row.kind, row.status, row.attempts])).toEqual([["receipt", "sent", 1]]);
  });

  it("a refused send is recorded failed and retried by the job", async () => {
    const { customerId, email } = await customerWithEmail("30.00");
    fixture.testApp.mail.refuse(email, 1);
    const paid = await staffPay(customerId, visaCharge("7.00"));
    expect(paid.body).toMatchObject({ approved: true });
    await mailTo(email);
    const [row] = await pollUntil(
      () => receiptsOf(customerId),
      (found) => found[0]?.status === "sent",
      10_000,
    );
    expect(row).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("Process CC emails each approved customer", async () => {
    const { customerId, email } = await customerWithEmail("17.00");
    await storeCard(customerId);
    const started = await staffA().post("/api/customers/make-bulk-payments/", { ids: [customerId] });
    expect(started.status).toBe(202);
    const { job } = cardRunStartedSchema.parse(started.body);
    const [receipt] = await mailTo(email);
    // Done before the next test starts a run of its own (one card run per client at a time).
    await pollUntil(
      async () => (await staffA().get(`/api/card-runs/${job.id}/`)).body as { job: { status: string } },
      (run) => run.job.status === "succeeded",
      30_000,
    );
    expect(receipt?.subject).toContain("$17.00");
    expect(receipt?.text).toContain("MC ending in 4444");
    expect(receipt?.text).toContain("Balance after this payment: $0.00");
  });

  it("autopay emails a receipt when approved, and a notice plus a staff flag when declined", async () => {
    const approvedCustomer = await customerWithEmail("23.00");
    const declinedCustomer = await customerWithEmail("24.00");
    // Cards of their own: the sandbox refuses the same card and amount within its duplicate window.
    await storeCard(approvedCustomer.customerId, true, "6011111111111117");
    await storeCard(declinedCustomer.customerId, true, "4012888888881881");
    const [user] = await fixture.testApp.db
      .select()
      .from(users)
      .where(eq(users.clientId, fixture.tenants.a.clientId))
      .limit(1);
    if (!user) throw new Error("no user");
    const chunks: CardRunChunk[] = [];
    // A card run planned as autopay's is (source autopay, the statement's amount due), worked by the job.
    await startBulkCardRun(
      fixture.testApp.db,
      {
        clientId: fixture.tenants.a.clientId,
        user: { ...user, username: user.email, isAdmin: false, clientId: fixture.tenants.a.clientId },
      },
      [approvedCustomer.customerId, declinedCustomer.customerId],
      (_tx, queued) => {
        chunks.push(...queued.map((chunk) => chunk.payload));
        return Promise.resolve();
      },
    );
    for (const chunk of chunks)
      await fixture.testApp.jobs?.enqueue("card-run", {
        ...chunk,
        source: "autopay",
        items: chunk.items.map((item) => ({
          ...item,
          amountDue: item.customerId === approvedCustomer.customerId ? "23.00" : "24.00",
        })),
      });
    const [receipt] = await mailTo(approvedCustomer.email);
    expect(receipt?.subject).toContain("payment receipt for $23.00");
    const [notice] = await mailTo(declinedCustomer.email);
    expect(notice?.subject).toContain("automatic payment of $24.00 was declined");
    expect(notice?.text).toContain("Nothing was charged");
    expect(notice?.text).toContain("Balance due: $24.00");

    const flagged = await staffA().get("/api/payment-attempts/", { needs_attention: "true" });
    const list = (flagged.body as { results: PaymentAttempt[] }).results;
    expect(list.map((attempt) => attempt.customer_id)).toEqual([declinedCustomer.customerId]);
    expect(list[0]).toMatchObject({
      source: "autopay",
      status: "declined",
      needs_attention: true,
      receipt: { kind: "declined", recipient: declinedCustomer.email },
    });
    // Paid since: no longer flagged.
    const paid = await staffPay(declinedCustomer.customerId, { paymentMethod: "useSaved", amount: "23.00" });
    expect(paid.body).toMatchObject({ approved: true });
    const after = await staffA().get("/api/payment-attempts/", { needs_attention: "true" });
    expect(after.body).toMatchObject({ count: 0 });
  });

  it("comes from the client: its name as the sender, its email as Reply-To, the provider's envelope", async () => {
    const [client] = await fixture.testApp.db
      .update(clients)
      .set({ email: "billing@client-a.example" })
      .where(eq(clients.id, fixture.tenants.a.clientId))
      .returning({ name: clients.clientName });
    const { customerId, email } = await customerWithEmail("19.00");
    const paid = await staffPay(customerId, visaCharge("5.00"));
    expect(paid.body).toMatchObject({ approved: true });
    const [receipt] = await mailTo(email);
    expect(receipt?.from).toEqual({ name: client?.name, address: PROVIDER_MAIL_ADDRESS });
    expect(receipt?.replyTo).toBe("billing@client-a.example");
    expect(receipt?.envelopeFrom).toBe(PROVIDER_MAIL_ADDRESS);
  });

  it("a refunded card payment emails the payer a refund notice, once", async () => {
    const { customerId, token, email } = await customerWithEmail("50.00");
    const payer = `refund-payer-${Date.now()}@example.com`;
    const paid = await pay(cardPayment(token, "27.00", { email: payer }));
    expect(paid.body).toMatchObject({ approved: true, account_balance: "23.00" });
    await mailTo(payer);
    const [payment] = await attemptsOf(customerId);
    const reversed = await staffA().post(`/api/transactions/${payment?.transaction_id}/reversal/`);
    expect(reversed.status, reversed.text).toBe(201);
    // Queued with the refund's answer; the every-minute sweep sends it (here asked for at once).
    await fixture.testApp.jobs?.enqueue("payment-receipts", { clientId: fixture.tenants.a.clientId });
    const mails = await mailTo(payer, 2);
    const notice = mails.find((mail) => mail.subject.includes("refunded"));
    expect(notice?.subject).toContain("your payment of $27.00 was refunded");
    const refund = (await attemptsOf(customerId)).find((attempt) => attempt.kind === "refund");
    for (const part of [notice?.text ?? "", notice?.html ?? ""]) {
      expect(part).toContain("$27.00");
      expect(part).toContain("ending in 1111");
      expect(part).toContain(refund?.gateway_trans_id || "missing");
      expect(part).toContain("$50.00");
    }
    expect(notice?.text).toContain("Balance after this refund: $50.00");
    expect(notice?.messageId).toMatch(/payment-receipt-/);
    // Once, however often the job runs; the customer's own address gets nothing.
    for (let again = 0; again < 3; again += 1)
      await fixture.testApp.jobs?.enqueue("payment-receipts", { clientId: fixture.tenants.a.clientId });
    await receiptJobsDone();
    expect(
      fixture.testApp.mail.messages.filter((mail) => mail.to === payer && mail.subject.includes("refunded")),
    ).toHaveLength(1);
    expect(fixture.testApp.mail.messages.filter((mail) => mail.to === email)).toEqual([]);
    const shown = await pollUntil(
      () => attemptsOf(customerId),
      (list) => list.find((attempt) => attempt.kind === "refund")?.receipt?.status === "sent",
      10_000,
    );
    expect(shown.find((attempt) => attempt.kind === "refund")?.receipt).toMatchObject({
      kind: "refund",
      status: "sent",
      recipient: payer,
    });
  });
});
