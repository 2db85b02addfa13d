import { describe, expect, it } from "vitest";
import { buildRequest, callGateway, queryGateway } from "./bluepay-client.js";
import {
  CLIENT,
  CARD,
  RANGE,
  TIMEOUT,
  advanceClock,
  sandboxWith,
  pay,
  sale,
  transIdOf,
  useSandboxes,
} from "../../test-support/bluepay-sandbox.js";

// The adapter against the sandbox over real HTTP: what a payment screen or Process CC will rely on.

useSandboxes();

describe("charging through the adapter", () => {
  it("approves an odd dollar amount and declines an even one", async () => {
    const sandbox = await sandboxWith();
    expect(await sale(sandbox, "3.00", { orderId: "o-1" })).toEqual({
      status: "approved",
      rawStatus: "1",
      transId: expect.stringMatching(/^\d{12}$/),
      message: "Approved Sale",
      avs: "_",
      cvv2: "_",
      authCode: expect.stringMatching(/^[0-9A-F]{6}$/),
      mask: "xxxxxxxxxxxx1111",
      cardType: "VISA",
      transType: "SALE",
      storedId: "",
    });
    expect(await sale(sandbox, "12.50")).toMatchObject({
      status: "declined",
      message: "Declined",
      authCode: "",
    });
    const ach = { kind: "ach", accountType: "S", routing: "123456780", account: "99887766" } as const;
    expect(await pay(sandbox, { amount: "1.10", account: ach })).toMatchObject({
      status: "approved",
      cardType: "ACH",
      mask: "S:123456780:xxxx7766",
    });
  });

  it("is refused when the seal is made with another secret key, or the account is unknown", async () => {
    const sandbox = await sandboxWith();
    expect(await sale(sandbox, "3.00")).toMatchObject({ status: "approved" });
    const wrongKey = await pay(
      sandbox,
      { amount: "5.00", account: CARD },
      { ...CLIENT, secretKey: "NOT-THE-KEY" },
    );
    expect(wrongKey).toMatchObject({ status: "error", rawStatus: "E", message: "SECURITY ERROR" });
    const unknown = await pay(
      sandbox,
      { amount: "5.00", account: CARD },
      { accountId: "999", secretKey: "x" },
    );
    expect(unknown).toMatchObject({ status: "error", message: "Unable to locate account" });
  });

  it("answers malformed input with an error (STATUS=E) and refuses to build impossible requests", async () => {
    const sandbox = await sandboxWith();
    const expired = await pay(sandbox, { amount: "3.00", account: { ...CARD, expire: "0130" } });
    expect(expired).toMatchObject({ status: "error", message: "CARD_EXPIRE is in the past" });
    const badCard = await pay(sandbox, { amount: "3.00", account: { ...CARD, number: "4111111111111112" } });
    expect(badCard).toMatchObject({ status: "error", message: "Invalid PAYMENT_ACCOUNT" });
    expect(sandbox.transactions()).toEqual([]);
    for (const amount of ["12.345", "-1.00", "abc", "0", ""])
      expect(() => buildRequest(CLIENT, { transType: "SALE", mode: "TEST", amount, account: CARD })).toThrow(
        /amount/,
      );
    expect(() => buildRequest(CLIENT, { transType: "SALE", mode: "TEST", amount: "1.00" })).toThrow(
      /account/,
    );
    expect(() => buildRequest(CLIENT, { transType: "VOID", mode: "TEST" })).toThrow(/masterId/);
  });

  it("reports duplicate scrubbing as its own outcome, with the original TRANS_ID", async () => {
    const sandbox = await sandboxWith();
    const first = await sale(sandbox, "7.00");
    advanceClock(2_000);
    const again = await sale(sandbox, "7.00");
    expect(again).toMatchObject({ status: "duplicate", message: "DUPLICATE", transId: transIdOf(first) });
    expect(await sale(sandbox, "7.00", { duplicateOverride: true })).toMatchObject({ status: "approved" });
  });

  it("stores a card with a 0.00 AUTH and charges it later by MASTER_ID alone", async () => {
    const sandbox = await sandboxWith();
    const stored = await pay(sandbox, {
      transType: "AUTH",
      amount: "0",
      account: CARD,
      customer: { name1: "Ann" },
    });
    expect(stored).toMatchObject({ status: "approved", message: "INFORMATION STORED" });
    const charged = await pay(sandbox, { amount: "21.00", masterId: transIdOf(stored) });
    expect(charged).toMatchObject({ status: "approved", mask: "xxxxxxxxxxxx1111", cardType: "VISA" });
    const fields = buildRequest(CLIENT, {
      transType: "SALE",
      mode: "TEST",
      amount: "21.00",
      masterId: "100000000001",
    });
    expect(fields).not.toHaveProperty("PAYMENT_ACCOUNT");
    expect(await pay(sandbox, { amount: "23.00", masterId: "100999999999" })).toMatchObject({
      status: "error",
      message: "Invalid MASTER_ID",
    });
  });

  it("refunds and voids an earlier TRANS_ID", async () => {
    const sandbox = await sandboxWith();
    const paid = transIdOf(await sale(sandbox, "31.00"));
    const refund = await pay(sandbox, { transType: "REFUND", masterId: paid, amount: "10.00" });
    expect(refund).toMatchObject({ status: "approved", message: "Approved Refund", transType: "REFUND" });
    const voided = await pay(sandbox, { transType: "VOID", masterId: transIdOf(refund) });
    expect(voided).toMatchObject({ status: "approved", message: "Approved Void" });
    expect(await pay(sandbox, { transType: "VOID", masterId: paid })).toMatchObject({ status: "approved" });
    expect(await pay(sandbox, { transType: "REFUND", masterId: paid })).toMatchObject({
      status: "error",
      message: "MASTER_ID was voided",
    });
    const book = sandbox.transactions().map((t) => [t.transType, t.amount, t.status]);
    expect(book).toEqual([
      ["SALE", "31.00", "1"],
      ["REFUND", "10.00", "1"],
      ["VOID", "10.00", "1"],
      ["VOID", "31.00", "1"],
    ]);
  });
});

describe("when the answer is lost", () => {
  it("a dropped answer is 'no-answer'; the query by ORDER_ID finds the sale, and a retry is scrubbed", async () => {
    const sandbox = await sandboxWith({ faults: { dropRate: 1 } });
    const lost = await sale(sandbox, "5.00", { orderId: "pay-77" });
    expect(lost).toMatchObject({ status: "no-answer", reason: "connection-lost", maybeProcessed: true });
    sandbox.setFaults({ dropRate: 0 });
    const found = await queryGateway(
      sandbox.bp20postUrl,
      CLIENT,
      { mode: "TEST", orderId: "pay-77", ...RANGE },
      TIMEOUT,
    );
    const recorded = sandbox.transactions()[0];
    expect(found).toEqual({
      kind: "found",
      transaction: expect.objectContaining({
        transId: recorded?.transId,
        status: "approved",
        amount: "5.00",
      }),
    });
    // Charging again instead of asking would have been caught by duplicate scrubbing within its window.
    expect(await sale(sandbox, "5.00", { orderId: "pay-77" })).toMatchObject({
      status: "duplicate",
      transId: recorded?.transId,
    });
    expect(sandbox.transactions()).toHaveLength(1);
  });

  it("a slow gateway answers within the time-out; a held answer times out and the query still finds it", async () => {
    const sandbox = await sandboxWith({ faults: { latencyMs: 300 } });
    const started = performance.now();
    expect(await sale(sandbox, "9.00")).toMatchObject({ status: "approved" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);

    sandbox.setFaults({ latencyMs: 0, hangRate: 1 });
    const fields = buildRequest(CLIENT, {
      transType: "SALE",
      mode: "TEST",
      amount: "11.00",
      account: CARD,
      orderId: "pay-78",
    });
    const timedOut = await callGateway(sandbox.bp20postUrl, fields, { timeoutMs: 300 });
    expect(timedOut).toMatchObject({ status: "no-answer", reason: "timeout", maybeProcessed: true });
    sandbox.setFaults({ hangRate: 0 });
    const found = await queryGateway(
      sandbox.bp20postUrl,
      CLIENT,
      { mode: "TEST", orderId: "pay-78", ...RANGE },
      TIMEOUT,
    );
    expect(found).toMatchObject({ kind: "found", transaction: { amount: "11.00", status: "approved" } });
  });

  it("tells a gateway nobody reached (nothing charged) from an unreadable answer (maybe charged)", async () => {
    const closed = await sandboxWith();
    const url = closed.bp20postUrl;
    await closed.close();
    const fields = buildRequest(CLIENT, { transType: "SALE", mode: "TEST", amount: "3.00", account: CARD });
    expect(await callGateway(url, fields, TIMEOUT)).toMatchObject({
      status: "no-answer",
      reason: "refused",
      maybeProcessed: false,
    });
    const sandbox = await sandboxWith();
    expect(await callGateway(`${sandbox.url}/not-the-gateway`, fields, TIMEOUT)).toMatchObject({
      status: "no-answer",
      reason: "unreadable",
      maybeProcessed: true,
      detail: "HTTP 404 without a STATUS field",
    });
  });

  it("the query tells 'not found' from a refused query", async () => {
    const sandbox = await sandboxWith();
    await sale(sandbox, "3.00", { orderId: "pay-79" });
    const query = { mode: "TEST", orderId: "pay-80", ...RANGE } as const;
    expect(await queryGateway(sandbox.bp20postUrl, CLIENT, query, TIMEOUT)).toEqual({ kind: "not-found" });
    const wrongKey = { ...CLIENT, secretKey: "WRONG" };
    expect(
      await queryGateway(sandbox.bp20postUrl, wrongKey, { ...query, orderId: "pay-79" }, TIMEOUT),
    ).toEqual({
      kind: "unclear",
      detail: "HTTP 400: SECURITY ERROR",
    });
  });
});
