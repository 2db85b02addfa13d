import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import pino from "pino";
import { clients } from "../../db/tables.js";
import { createMailer } from "../mail/mailer.js";
import { sendGatewayNotices } from "./gateway-notices.js";
import {
  achPayment,
  customerOf,
  entriesOf,
  eventsOf,
  nextRejectId,
  owingCustomer,
  useGatewayEventsWorld,
} from "../../test-support/gateway-events-world.js";
import { pollUntil } from "../../test-support/poll-until.js";

// Issue 37: BluePay's Trans Notify posts reach a public door; nothing in a post is trusted. Its
// trans_id is looked up at the gateway with the client's credentials (stq, by id) and only the
// gateway's own record is applied; the same return posted twice is applied once; the customer is
// emailed (by what the gateway-followups job runs, through the test SMTP server).

const world = useGatewayEventsWorld();

async function clientNoOf(clientId: number): Promise<number> {
  const [client] = await world.testApp.db
    .select({ clientNo: clients.clientNo })
    .from(clients)
    .where(eq(clients.id, clientId));
  return client?.clientNo ?? 0;
}

async function notify(clientNo: number, fields: Record<string, string>) {
  return fetch(`${world.testApp.baseUrl}/api/gateway/notify/${clientNo}/`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

const today = () => new Date().toISOString().slice(0, 10);

describe("Trans Notify", () => {
  it("applies a post only once the gateway's own record confirms it, and only once", async () => {
    const { customerId, email } = await owingCustomer(world, "50.00", true);
    const sale = await achPayment(world, customerId, "11.00");
    const clientNo = await clientNoOf(world.tenants.a.clientId);
    const claim = {
      origin: "REJECT",
      payment_type: "ACH",
      trans_type: "SALE",
      trans_status: "1",
      amount: "11.00",
    };

    // A forged return: the gateway has no such record.
    const forgedId = nextRejectId();
    const forged = await notify(clientNo, {
      ...claim,
      trans_id: forgedId,
      master_id: sale.gatewayTransId,
      auth_code: "R01",
    });
    expect(forged.status).toBe(200);
    // A post calling the sale itself a return: the gateway shows an ordinary, unsettled sale.
    await notify(clientNo, {
      ...claim,
      trans_id: sale.gatewayTransId,
      master_id: sale.gatewayTransId,
      auth_code: "R01",
    });

    // The real return, posted with lies in it: the gateway's record (R01, this sale) is what counts.
    const rejectId = nextRejectId();
    world.standIn.addRecord({
      id: rejectId,
      origin: "REJECT",
      payment_type: "ACH",
      trans_type: "SALE",
      status: "1",
      amount: "11.00",
      auth_code: "R01",
      message: "INSUFFICIENT FUNDS",
      master_id: sale.gatewayTransId,
      issue_date: `${today()} 09:00:00`,
    });
    const posted = await notify(clientNo, {
      ...claim,
      trans_id: rejectId,
      master_id: "1",
      auth_code: "R10",
      amount: "999.00",
    });
    expect(posted.status).toBe(200);
    expect(await posted.json()).toEqual({ received: true });

    const events = await pollUntil(
      () => eventsOf(world, customerId),
      (found) => found.some((event) => event.kind === "returned"),
      15_000,
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: "returned",
      code: "R01",
      gateway_trans_id: rejectId,
      original_trans_id: sale.gatewayTransId,
      amount: "11.00",
      source: "notify",
      description: "ACH return R01 Insufficient funds",
    });
    expect(world.standIn.lookups).toEqual(expect.arrayContaining([forgedId, sale.gatewayTransId, rejectId]));
    expect((await customerOf(world, customerId)).total_balance).toBe("50.00");

    // Posted again (BluePay retries): looked up again, applied once.
    const before = world.standIn.lookups.length;
    await notify(clientNo, { trans_id: rejectId });
    await pollUntil(
      () => Promise.resolve(world.standIn.lookups.length),
      (count) => count > before,
      10_000,
    );
    expect(await eventsOf(world, customerId)).toHaveLength(1);
    expect(
      (await entriesOf(world, customerId)).filter((entry) => entry.description.startsWith("ACH return")),
    ).toHaveLength(1);

    // The customer is told (what the gateway-followups job runs).
    await sendGatewayNotices(
      world.testApp.db,
      createMailer({
        smtpUrl: `${world.testApp.mail.url}&pool=false`,
        dataDir: world.testApp.config.dataDir,
        log: pino({ level: "silent" }),
      }),
      world.tenants.a.clientId,
    );
    const mail = await pollUntil(
      () => Promise.resolve(world.testApp.mail.messages.filter((message) => message.to === email)),
      (found) => found.some((message) => message.subject.includes("returned")),
      20_000,
    );
    const notice = mail.find((message) => message.subject.includes("returned"));
    expect(notice?.subject).toContain("your payment of $11.00 was returned by your bank");
    expect(notice?.text).toContain("ACH return R01 Insufficient funds");
    expect(notice?.text).toContain("Balance due now: $50.00");
  });

  it("answers 200 to posts for no client or without a transaction id, and applies nothing", async () => {
    expect((await notify(999_999, { trans_id: "123" })).status).toBe(200);
    const clientNo = await clientNoOf(world.tenants.a.clientId);
    expect((await notify(clientNo, { trans_id: "not-a-number" })).status).toBe(200);
    expect((await notify(clientNo, {})).status).toBe(200);
    // The rest of the API still takes JSON only.
    const form = await fetch(`${world.testApp.baseUrl}/api/auth/login/`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "username=a&password=b",
    });
    expect(form.status).toBe(415);
  });
});
