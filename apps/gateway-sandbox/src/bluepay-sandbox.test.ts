import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox, type SandboxOptions } from "./bluepay-sandbox.js";
import { DEMO_ACCOUNT } from "./sandbox-accounts.js";
import {
  CARD,
  EXPIRE,
  JUNE_2030,
  query,
  sale,
  seal,
  transaction,
  type Answer,
} from "./test-support/protocol-client.js";

const running: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

let clock = JUNE_2030;
async function sandboxWith(options: SandboxOptions = {}): Promise<Sandbox> {
  clock = JUNE_2030;
  const sandbox = await startSandbox({
    now: () => new Date(clock),
    firstTransId: "100000000001",
    ...options,
  });
  running.push(sandbox);
  return sandbox;
}

const status = (answer: Answer) => answer.fields.get("STATUS");
const message = (answer: Answer) => answer.fields.get("MESSAGE");
const transId = (answer: Answer) => answer.fields.get("TRANS_ID") ?? "";

describe("test-mode sales", () => {
  it("approves an odd dollar amount and declines an even one, answering as bp20post does", async () => {
    const sandbox = await sandboxWith();
    const approved = await sale(sandbox, "3.00", { ADDR1: "Y 123 Test St", ADDR2: "M" });
    expect(approved.httpStatus).toBe(200);
    expect(Object.fromEntries(approved.fields)).toEqual({
      TRANS_ID: "100000000001",
      STATUS: "1",
      AVS: "Y",
      CVV2: "M",
      MESSAGE: "Approved Sale",
      AUTH_CODE: expect.stringMatching(/^[0-9A-F]{6}$/),
      PAYMENT_ACCOUNT_MASK: "xxxxxxxxxxxx1111",
      CARD_TYPE: "VISA",
      TRANS_TYPE: "SALE",
      REBID: "",
    });
    const declined = await sale(sandbox, "12.99");
    expect([status(declined), message(declined), declined.fields.get("AUTH_CODE")]).toEqual([
      "0",
      "Declined",
      "",
    ]);
    const auth = await transaction(sandbox, {
      TRANS_TYPE: "AUTH",
      AMOUNT: "5.25",
      PAYMENT_ACCOUNT: "5454545454545454",
      CARD_EXPIRE: EXPIRE,
    });
    expect([status(auth), message(auth), auth.fields.get("CARD_TYPE")]).toEqual(["1", "Approved Auth", "MC"]);
  });

  it("takes defaults as BluePay does: TRANS_TYPE SALE, PAYMENT_TYPE CREDIT, MODE TEST", async () => {
    const sandbox = await sandboxWith();
    const answer = await transaction(sandbox, { AMOUNT: "1.00", PAYMENT_ACCOUNT: CARD, CARD_EXPIRE: EXPIRE });
    expect([status(answer), answer.fields.get("TRANS_TYPE")]).toEqual(["1", "SALE"]);
  });

  it("charges checking and savings accounts (ACH) by the same odd/even rule", async () => {
    const sandbox = await sandboxWith();
    const ach = { PAYMENT_TYPE: "ACH", PAYMENT_ACCOUNT: "C:123456780:1234567890" };
    const approved = await transaction(sandbox, { ...ach, AMOUNT: "7.00" });
    expect([
      status(approved),
      approved.fields.get("PAYMENT_ACCOUNT_MASK"),
      approved.fields.get("CARD_TYPE"),
    ]).toEqual(["1", "C:123456780:xxxxxx7890", "ACH"]);
    expect(status(await transaction(sandbox, { ...ach, AMOUNT: "8.00" }))).toBe("0");
    const badRouting = await transaction(sandbox, {
      ...ach,
      PAYMENT_ACCOUNT: "S:123456789:1234",
      AMOUNT: "7.00",
    });
    expect([status(badRouting), message(badRouting)]).toEqual(["E", "Invalid PAYMENT_ACCOUNT"]);
  });
});

describe("refused requests (STATUS=E, HTTP 400, nothing recorded)", () => {
  it("refuses a missing or unknown account and a bad seal", async () => {
    const sandbox = await sandboxWith();
    const cases: Array<[Promise<Answer>, string]> = [
      [sale(sandbox, "3.00", { ACCOUNT_ID: "" }), "Missing ACCOUNT_ID"],
      [sale(sandbox, "3.00", { ACCOUNT_ID: "999999999999" }), "Unable to locate account"],
      [transaction(sandbox, { AMOUNT: "3.00", PAYMENT_ACCOUNT: CARD }, "WRONG-SECRET"), "SECURITY ERROR"],
      [transaction(sandbox, { AMOUNT: "3.00", PAYMENT_ACCOUNT: CARD }, null), "SECURITY ERROR"],
    ];
    for (const [answer, expected] of cases) {
      const result = await answer;
      expect([result.httpStatus, status(result), message(result), transId(result)]).toEqual([
        400,
        "E",
        expected,
        "",
      ]);
    }
    expect(sandbox.transactions()).toEqual([]);
  });

  it("refuses a changed field the seal covers (the amount raised after sealing)", async () => {
    const sandbox = await sandboxWith();
    const fields = {
      ACCOUNT_ID: DEMO_ACCOUNT.accountId,
      AMOUNT: "1.00",
      PAYMENT_ACCOUNT: CARD,
      CARD_EXPIRE: EXPIRE,
    };
    const tps = seal(DEMO_ACCOUNT.secretKey, fields, [
      "ACCOUNT_ID",
      "TRANS_TYPE",
      "AMOUNT",
      "MASTER_ID",
      "NAME1",
      "PAYMENT_ACCOUNT",
    ]);
    const response = await fetch(sandbox.bp20postUrl, {
      method: "POST",
      body: new URLSearchParams({ ...fields, AMOUNT: "901.00", TAMPER_PROOF_SEAL: tps }),
    });
    expect(await response.text()).toBe("TRANS_ID=&STATUS=E&MESSAGE=SECURITY%20ERROR");
  });

  it("refuses bad amounts, cards, expiry, CVV, modes and transaction types", async () => {
    const sandbox = await sandboxWith();
    const cases: Array<[Record<string, string>, string]> = [
      [{ AMOUNT: "12.345" }, "Invalid AMOUNT"],
      [{ AMOUNT: "-1.00" }, "Invalid AMOUNT"],
      [{ AMOUNT: "" }, "Invalid AMOUNT"],
      [{ AMOUNT: "0.00" }, "Invalid AMOUNT"],
      [{ PAYMENT_ACCOUNT: "4111111111111112" }, "Invalid PAYMENT_ACCOUNT"],
      [{ PAYMENT_ACCOUNT: "" }, "Missing PAYMENT_ACCOUNT"],
      [{ CARD_EXPIRE: "1399" }, "Invalid CARD_EXPIRE"],
      [{ CARD_EXPIRE: "" }, "Invalid CARD_EXPIRE"],
      [{ CARD_EXPIRE: "0530" }, "CARD_EXPIRE is in the past"],
      [{ CARD_CVV2: "12" }, "Invalid CARD_CVV2"],
      [{ PAYMENT_TYPE: "CASH" }, "Invalid PAYMENT_TYPE"],
      [{ MODE: "LIVE" }, "MODE LIVE is not accepted by this sandbox; send MODE=TEST"],
      [{ MODE: "DEMO" }, "Invalid MODE"],
      [{ TRANS_TYPE: "CAPTURE" }, "TRANS_TYPE CAPTURE is not supported by this sandbox"],
      [{ MASTER_ID: "100999999999" }, "Invalid MASTER_ID"],
    ];
    for (const [fields, expected] of cases) {
      const answer = await sale(sandbox, "3.00", fields);
      expect([status(answer), message(answer)], JSON.stringify(fields)).toEqual(["E", expected]);
    }
    expect(sandbox.transactions()).toEqual([]);
  });
});

describe("duplicate scrubbing", () => {
  it("answers a repeated approved sale within the window with DUPLICATE and the original's fields", async () => {
    const sandbox = await sandboxWith({ duplicateWindowMs: 5_000 });
    const first = await sale(sandbox, "3.00", { ORDER_ID: "pay-1" });
    clock += 4_000;
    const again = await sale(sandbox, "3.00", { ORDER_ID: "pay-1" });
    expect([status(again), message(again), transId(again)]).toEqual(["1", "DUPLICATE", transId(first)]);
    expect(again.fields.get("AUTH_CODE")).toBe(first.fields.get("AUTH_CODE"));
    expect(sandbox.transactions()).toHaveLength(1);

    // Another amount or card is not a duplicate; DUPLICATE_OVERRIDE=1 turns scrubbing off.
    expect(message(await sale(sandbox, "5.00"))).toBe("Approved Sale");
    expect(message(await sale(sandbox, "3.00", { PAYMENT_ACCOUNT: "5454545454545454" }))).toBe(
      "Approved Sale",
    );
    expect(message(await sale(sandbox, "3.00", { DUPLICATE_OVERRIDE: "1" }))).toBe("Approved Sale");
  });

  it("lets the same sale through once the window has passed, and scrubs a decline too", async () => {
    const sandbox = await sandboxWith({ duplicateWindowMs: 5_000 });
    await sale(sandbox, "3.00");
    clock += 5_001;
    expect(message(await sale(sandbox, "3.00"))).toBe("Approved Sale");
    const declined = await sale(sandbox, "4.00");
    // BluePay_MESSAGE_values.txt: DUPLICATE "on approved or declined transactions".
    const again = await sale(sandbox, "4.00");
    expect([status(again), message(again), transId(again)]).toEqual(["0", "DUPLICATE", transId(declined)]);
    clock += 5_001;
    expect(message(await sale(sandbox, "4.00"))).toBe("Declined");
  });

  it("counts a MASTER_ID sale of the same card as the same card", async () => {
    const sandbox = await sandboxWith();
    const first = await sale(sandbox, "3.00");
    const again = await transaction(sandbox, { AMOUNT: "3.00", MASTER_ID: transId(first) });
    expect([message(again), transId(again)]).toEqual(["DUPLICATE", transId(first)]);
  });
});

describe("MASTER_ID: an earlier transaction as the stored card", () => {
  it("charges the earlier transaction's card and names without the card being sent again", async () => {
    const sandbox = await sandboxWith();
    const stored = await transaction(sandbox, {
      TRANS_TYPE: "AUTH",
      AMOUNT: "0.00",
      PAYMENT_ACCOUNT: "378282246310005",
      CARD_EXPIRE: EXPIRE,
      NAME1: "Ann",
      NAME2: "Payer",
    });
    expect([status(stored), message(stored)]).toEqual(["1", "INFORMATION STORED"]);
    const charged = await transaction(sandbox, {
      TRANS_TYPE: "SALE",
      AMOUNT: "9.00",
      MASTER_ID: transId(stored),
    });
    expect(Object.fromEntries(charged.fields)).toMatchObject({
      STATUS: "1",
      MESSAGE: "Approved Sale",
      PAYMENT_ACCOUNT_MASK: "xxxxxxxxxxx0005",
      CARD_TYPE: "AMEX",
    });
    expect(sandbox.transactions().at(-1)).toMatchObject({
      masterId: transId(stored),
      name1: "Ann",
      name2: "Payer",
      amount: "9.00",
    });
  });

  it("knows no MASTER_ID of another account", async () => {
    const other = { accountId: "100000000777", secretKey: "OTHER-ACCOUNT-SECRET" };
    const sandbox = await sandboxWith({ accounts: [other] });
    const first = await sale(sandbox, "3.00");
    const answer = await transaction(
      sandbox,
      { ACCOUNT_ID: other.accountId, AMOUNT: "5.00", MASTER_ID: transId(first) },
      other.secretKey,
    );
    expect([status(answer), message(answer)]).toEqual(["E", "Invalid MASTER_ID"]);
  });
});

describe("refunds and voids of an earlier TRANS_ID", () => {
  it("refunds part, then the rest, and refuses more than is left", async () => {
    const sandbox = await sandboxWith();
    const paid = transId(await sale(sandbox, "25.00"));
    const part = await transaction(sandbox, { TRANS_TYPE: "REFUND", AMOUNT: "10.00", MASTER_ID: paid });
    expect(Object.fromEntries(part.fields)).toMatchObject({
      STATUS: "1",
      MESSAGE: "Approved Refund",
      TRANS_TYPE: "REFUND",
    });
    const tooMuch = await transaction(sandbox, { TRANS_TYPE: "REFUND", AMOUNT: "15.01", MASTER_ID: paid });
    expect([status(tooMuch), message(tooMuch)]).toEqual([
      "E",
      "AMOUNT is more than the 15.00 left to refund",
    ]);
    const rest = await transaction(sandbox, { TRANS_TYPE: "REFUND", MASTER_ID: paid });
    expect(status(rest)).toBe("1");
    expect(sandbox.transactions().find((t) => t.transId === transId(rest))?.amount).toBe("15.00");
    const none = await transaction(sandbox, { TRANS_TYPE: "REFUND", MASTER_ID: paid });
    expect(message(none)).toBe("MASTER_ID is fully refunded");
  });

  it("voids a sale once, and refuses to refund it afterwards", async () => {
    const sandbox = await sandboxWith();
    const paid = transId(await sale(sandbox, "3.00"));
    const voided = await transaction(sandbox, { TRANS_TYPE: "VOID", MASTER_ID: paid });
    expect([status(voided), message(voided)]).toEqual(["1", "Approved Void"]);
    expect(message(await transaction(sandbox, { TRANS_TYPE: "VOID", MASTER_ID: paid }))).toBe(
      "MASTER_ID was voided already",
    );
    expect(message(await transaction(sandbox, { TRANS_TYPE: "REFUND", MASTER_ID: paid }))).toBe(
      "MASTER_ID was voided",
    );
    expect(sandbox.transactions().find((t) => t.transId === paid)?.voided).toBe(true);
  });

  it("voiding a refund gives its amount back to refund; a declined sale cannot be refunded", async () => {
    const sandbox = await sandboxWith();
    const paid = transId(await sale(sandbox, "11.00"));
    const refund = transId(
      await transaction(sandbox, { TRANS_TYPE: "REFUND", AMOUNT: "4.00", MASTER_ID: paid }),
    );
    expect(message(await transaction(sandbox, { TRANS_TYPE: "VOID", MASTER_ID: paid }))).toBe(
      "MASTER_ID has refunds; void those first",
    );
    expect(status(await transaction(sandbox, { TRANS_TYPE: "VOID", MASTER_ID: refund }))).toBe("1");
    expect(sandbox.transactions().find((t) => t.transId === paid)?.refunded).toBe("0.00");
    const declined = transId(await sale(sandbox, "2.00"));
    expect(message(await transaction(sandbox, { TRANS_TYPE: "REFUND", MASTER_ID: declined }))).toBe(
      "MASTER_ID is not a sale that can be refunded",
    );
    expect(message(await transaction(sandbox, { TRANS_TYPE: "REFUND" }))).toBe("Missing MASTER_ID");
  });
});

describe("the single-transaction query (stq)", () => {
  it("finds a transaction by ORDER_ID in a date range, newest first, with lower-case fields", async () => {
    const sandbox = await sandboxWith();
    await sale(sandbox, "2.00", { ORDER_ID: "order-7" });
    const paid = await sale(sandbox, "3.00", { ORDER_ID: "order-7", INVOICE_ID: "inv-1" });
    const found = await query(sandbox, { order_id: "order-7" });
    expect(Object.fromEntries(found.fields)).toMatchObject({
      id: transId(paid),
      status: "1",
      trans_type: "SALE",
      amount: "3.00",
      order_id: "order-7",
      invoice_id: "inv-1",
      payment_account: "xxxxxxxxxxxx1111",
      issue_date: "2030-06-15 12:00:00",
    });
    expect((await query(sandbox, { order_id: "order-7", status: "0" })).fields.get("amount")).toBe("2.00");
    // Its settlement shows once settled.
    sandbox.settle(transId(paid), "2030-06-16");
    expect(Object.fromEntries((await query(sandbox, { order_id: "order-7" })).fields)).toMatchObject({
      origin: "bp20post",
      settle_date: "2030-06-16 23:59:59",
      settlement_id: expect.stringMatching(/^\d{12}$/),
    });
  });

  it("answers no id when nothing matches (another order, other dates) and E for a bad seal or date", async () => {
    const sandbox = await sandboxWith();
    await sale(sandbox, "3.00", { ORDER_ID: "order-8" });
    expect(Object.fromEntries((await query(sandbox, { order_id: "order-9" })).fields)).toEqual({
      MESSAGE: "No transactions found",
    });
    // MODE defaults to LIVE, as the stq document says: no TEST transaction is found without MODE=TEST.
    expect((await query(sandbox, { order_id: "order-8", MODE: "" })).fields.has("id")).toBe(false);
    const lastYear = { order_id: "order-8", REPORT_START_DATE: "2029-06-01", REPORT_END_DATE: "2029-06-30" };
    expect((await query(sandbox, lastYear)).fields.has("id")).toBe(false);
    const badSeal = await query(sandbox, { order_id: "order-8" }, "WRONG");
    expect([badSeal.httpStatus, status(badSeal), message(badSeal)]).toEqual([400, "E", "SECURITY ERROR"]);
    const badDate = await query(sandbox, { REPORT_START_DATE: "June" });
    expect(message(badDate)).toBe("Invalid REPORT_START_DATE");
  });
});

describe("what a refusal says", () => {
  it("never reads as approved on the payment page (no 'approved', no 'auth/tkt')", async () => {
    const sandbox = await sandboxWith();
    const answers = [
      await sale(sandbox, "2.00"),
      await sale(sandbox, "3.00", { CARD_EXPIRE: "0101" }),
      await transaction(sandbox, { TRANS_TYPE: "REFUND", MASTER_ID: "1" }),
      await transaction(sandbox, { TRANS_TYPE: "REFUND", MASTER_ID: transId(await sale(sandbox, "4.00")) }),
    ];
    for (const answer of answers) expect(message(answer)?.toLowerCase()).not.toMatch(/approved|auth\/tkt/);
  });
});
