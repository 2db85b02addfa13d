import { describe, expect, it } from "vitest";
import {
  buildRequest,
  callGateway,
  queryGateway,
  queryUrlOf,
  redactFields,
  queryWindowOf,
} from "./bluepay-client.js";
import {
  CLIENT,
  CARD,
  RANGE,
  TIMEOUT,
  sandboxWith,
  pay,
  transIdOf,
  useSandboxes,
} from "../../test-support/bluepay-sandbox.js";

// The adapter against the sandbox over real HTTP: what a payment screen or Process CC will rely on.

useSandboxes();

describe("what the adapter exposes", () => {
  it("finds stq beside bp20post and spans the day before the attempt to the day after it or now", () => {
    expect(queryUrlOf("https://secure.bluepay.com/interfaces/bp20post")).toBe(
      "https://secure.bluepay.com/interfaces/stq",
    );
    const attempt = new Date(Date.UTC(2031, 0, 1, 0, 30));
    expect(queryWindowOf(attempt, attempt)).toEqual({ from: "2030-12-31", to: "2031-01-02" });
    // Asked a week later: the window reaches today too.
    expect(queryWindowOf(attempt, new Date(Date.UTC(2031, 0, 8, 23, 0)))).toEqual({
      from: "2030-12-31",
      to: "2031-01-09",
    });
  });

  it("redacts the card, CVV and seal for logs, and never puts the secret key in a request", () => {
    const fields = buildRequest(CLIENT, {
      transType: "SALE",
      mode: "TEST",
      amount: "3",
      account: CARD,
      orderId: "o-9",
    });
    expect(fields).toMatchObject({
      AMOUNT: "3.00",
      PAYMENT_ACCOUNT: CARD.number,
      CARD_CVV2: "123",
      ORDER_ID: "o-9",
    });
    expect(JSON.stringify(fields)).not.toContain(CLIENT.secretKey);
    const redacted = redactFields(fields);
    expect(redacted.PAYMENT_ACCOUNT).toBe("xxxxxxxxxxxx1111");
    expect(redacted).not.toHaveProperty("CARD_CVV2");
    expect(redacted).not.toHaveProperty("TAMPER_PROOF_SEAL");
    expect(redactFields({ PAYMENT_ACCOUNT: "C:123456780:99887766" }).PAYMENT_ACCOUNT).toBe(
      "xxxxxxxxxxxxxxxx7766",
    );
  });

  it("never waits past its time-out on a gateway that accepts the connection and says nothing", async () => {
    const sandbox = await sandboxWith({ faults: { hangRate: 1 } });
    const started = performance.now();
    const fields = buildRequest(CLIENT, { transType: "SALE", mode: "TEST", amount: "3.00", account: CARD });
    expect(await callGateway(sandbox.bp20postUrl, fields, { timeoutMs: 200 })).toMatchObject({
      reason: "timeout",
    });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("seals as the account expects", () => {
  const HMAC_ACCOUNT = { accountId: "100000000043", secretKey: "HMACACCOUNT43SECRETKEY0123456789" };
  const MD5_ACCOUNT = { accountId: "100000000044", secretKey: "MD5ACCOUNT44SECRETKEY0123456789A" };

  it("sends TPS_HASH_TYPE and TPS_DEF with every request, HMAC_SHA512 unless the client names another", async () => {
    const sandbox = await sandboxWith({
      accounts: [
        { ...HMAC_ACCOUNT, hashType: "HMAC_SHA512" },
        { ...MD5_ACCOUNT, hashType: "MD5" },
      ],
    });
    const fields = buildRequest(HMAC_ACCOUNT, {
      transType: "SALE",
      mode: "TEST",
      amount: "3.00",
      account: CARD,
    });
    expect(fields).toMatchObject({
      TPS_HASH_TYPE: "HMAC_SHA512",
      TPS_DEF: "ACCOUNT_ID TRANS_TYPE AMOUNT MASTER_ID NAME1 PAYMENT_ACCOUNT",
    });
    expect(fields.TAMPER_PROOF_SEAL).toMatch(/^[0-9a-f]{128}$/);
    // An HMAC_SHA512 account: charged, refunded and queried.
    const charged = await pay(
      sandbox,
      { amount: "3.00", account: CARD, orderId: "hmac-1" },
      HMAC_ACCOUNT,
    ).then(transIdOf);
    const refunded = await pay(
      sandbox,
      { transType: "REFUND", masterId: charged, amount: "1.00", orderId: "hmac-2" },
      HMAC_ACCOUNT,
    );
    expect(refunded).toMatchObject({ status: "approved" });
    const found = await queryGateway(
      sandbox.bp20postUrl,
      HMAC_ACCOUNT,
      { mode: "TEST", orderId: "hmac-2", ...RANGE },
      TIMEOUT,
    );
    expect(found).toMatchObject({ kind: "found", transaction: { transType: "REFUND", amount: "1.00" } });
    // An MD5-only account takes an MD5 seal, and also the default: TPS_HASH_TYPE in the request
    // decides over the account's own setting (BluePay's bprebadmin document).
    const md5 = { ...MD5_ACCOUNT, hashType: "MD5" } as const;
    expect(await pay(sandbox, { amount: "5.00", account: CARD }, md5)).toMatchObject({ status: "approved" });
    expect(await pay(sandbox, { amount: "7.00", account: CARD }, MD5_ACCOUNT)).toMatchObject({
      status: "approved",
    });
    expect(sandbox.transactions().map((t) => [t.accountId, t.hashType])).toEqual([
      [HMAC_ACCOUNT.accountId, "HMAC_SHA512"],
      [HMAC_ACCOUNT.accountId, "HMAC_SHA512"],
      [MD5_ACCOUNT.accountId, "MD5"],
      [MD5_ACCOUNT.accountId, "HMAC_SHA512"],
    ]);
  });

  it("marks card-on-file charges, the ACH class and the payer's address", () => {
    const first = buildRequest(CLIENT, {
      transType: "AUTH",
      mode: "TEST",
      amount: "0.00",
      account: CARD,
      stored: { indicator: "F", type: "C" },
      customerIp: "203.0.113.7",
    });
    expect(first).toMatchObject({ STORED_INDICATOR: "F", STORED_TYPE: "C", CUSTOMER_IP: "203.0.113.7" });
    expect(first).not.toHaveProperty("STORED_ID");
    const later = buildRequest(CLIENT, {
      transType: "SALE",
      mode: "TEST",
      amount: "9.00",
      masterId: "100000000001",
      stored: { indicator: "S", type: "M", id: "TESTID1" },
    });
    expect(later).toMatchObject({ STORED_INDICATOR: "S", STORED_TYPE: "M", STORED_ID: "TESTID1" });
    const ach = buildRequest(CLIENT, {
      transType: "SALE",
      mode: "TEST",
      amount: "9.00",
      account: { kind: "ach", accountType: "C", routing: "123123123", account: "1234567" },
      docType: "WEB",
    });
    expect(ach).toMatchObject({ DOC_TYPE: "WEB", PAYMENT_TYPE: "ACH" });
  });
});
