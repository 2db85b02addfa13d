import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "./bluepay-sandbox.js";
import { DEMO_ACCOUNT } from "./sandbox-accounts.js";
import { JUNE_2030, seal, type TestHashType } from "./test-support/protocol-client.js";

// bp10emu as BluePay's SDKs (PHP BluePay.php 3.0.7 and its siblings) speak to it: their field names,
// their seal (calcTPS), RESPONSEVERSION 8, the answer read from the redirect's Location query.

const running: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

async function sandboxAt(): Promise<Sandbox> {
  const sandbox = await startSandbox({ now: () => new Date(JUNE_2030), firstTransId: "100000000001" });
  running.push(sandbox);
  return sandbox;
}

type Sdk = { hashType?: TestHashType; secretKey?: string };

/** One SDK process(): the fields it sends, sealed as its calcTPS does, and the Location it reads. */
async function sdkPost(sandbox: Sandbox, fields: Record<string, string>, sdk: Sdk = {}) {
  const hashType = sdk.hashType ?? "HMAC_SHA512";
  const post: Record<string, string> = {
    MODE: "TEST",
    RESPONSEVERSION: "8",
    MERCHANT: DEMO_ACCOUNT.accountId,
    PAYMENT_TYPE: "",
    AMOUNT: "",
    RRNO: "",
    REBILLING: "",
    REB_FIRST_DATE: "",
    REB_EXPR: "",
    REB_CYCLES: "",
    REB_AMOUNT: "",
    TPS_HASH_TYPE: hashType,
    ...fields,
  };
  const names = [
    "MERCHANT",
    "TRANSACTION_TYPE",
    "AMOUNT",
    "REBILLING",
    "REB_FIRST_DATE",
    "REB_EXPR",
    "REB_CYCLES",
    "REB_AMOUNT",
    "RRNO",
    "MODE",
  ];
  post.TAMPER_PROOF_SEAL = seal(sdk.secretKey ?? DEMO_ACCOUNT.secretKey, post, names, hashType);
  const response = await fetch(`${sandbox.url}/interfaces/bp10emu`, {
    method: "POST",
    body: new URLSearchParams(post),
    redirect: "manual",
  });
  const location = response.headers.get("location") ?? "";
  return {
    status: response.status,
    location,
    fields: new Map(new URLSearchParams(location.slice(location.indexOf("?") + 1))),
  };
}

/** validBPStamp, as the SDKs do it. */
function validBpStamp(answer: Map<string, string>): boolean {
  const names = (answer.get("BP_STAMP_DEF") ?? "").split(" ");
  const expected = seal(
    DEMO_ACCOUNT.secretKey,
    Object.fromEntries(answer),
    names,
    answer.get("TPS_HASH_TYPE") as TestHashType,
  );
  return expected.toUpperCase() === answer.get("BP_STAMP");
}

describe("bp10emu", () => {
  it("runs a sale and its refund as the SDK does, answering by redirect with a verifiable BP_STAMP", async () => {
    const sandbox = await sandboxAt();
    const sold = await sdkPost(sandbox, {
      TRANSACTION_TYPE: "SALE",
      PAYMENT_TYPE: "CREDIT",
      AMOUNT: "3.00",
      CC_NUM: "4111111111111111",
      CC_EXPIRES: "1299",
      CVCCVV2: "123",
      NAME1: "Bob",
      NAME2: "Tester",
      ORDER_ID: "emu-1",
      STORED_INDICATOR: "F",
      STORED_TYPE: "C",
      APPROVED_URL: "https://merchant.example/ok",
    });
    expect(sold.status).toBe(302);
    expect(sold.location.startsWith("https://merchant.example/ok?")).toBe(true);
    expect(Object.fromEntries(sold.fields)).toMatchObject({
      Result: "APPROVED",
      MESSAGE: "Approved Sale",
      RRNO: "100000000001",
      PAYMENT_ACCOUNT: "xxxxxxxxxxxx1111",
      CARD_TYPE: "VISA",
      AUTH_CODE: expect.stringMatching(/^[0-9A-F]{6}$/),
      ORDER_ID: "emu-1",
      STORED_ID: expect.stringMatching(/^TESTID\d+$/),
      TPS_HASH_TYPE: "HMAC_SHA512",
    });
    expect(validBpStamp(sold.fields)).toBe(true);
    const refunded = await sdkPost(sandbox, {
      TRANSACTION_TYPE: "REFUND",
      RRNO: "100000000001",
      AMOUNT: "1.00",
    });
    expect([refunded.fields.get("Result"), refunded.fields.get("MESSAGE")]).toEqual([
      "APPROVED",
      "Approved Refund",
    ]);
    expect(validBpStamp(refunded.fields)).toBe(true);
    expect(sandbox.transactions().map((t) => [t.transType, t.origin, t.masterId])).toEqual([
      ["SALE", "bp10emu", ""],
      ["REFUND", "bp10emu", "100000000001"],
    ]);
  });

  it("answers DECLINED, MISSING and ERROR (SECURITY ERROR) as its Result, to the sandbox's own URLs by default", async () => {
    const sandbox = await sandboxAt();
    const card = { PAYMENT_TYPE: "CREDIT", CC_NUM: "4111111111111111", CC_EXPIRES: "1299" };
    const declined = await sdkPost(sandbox, { TRANSACTION_TYPE: "SALE", AMOUNT: "4.00", ...card });
    expect([declined.fields.get("Result"), declined.location.split("?")[0]]).toEqual([
      "DECLINED",
      `${sandbox.url}/sandbox/bp10emu/declined`,
    ]);
    const missing = await sdkPost(sandbox, { TRANSACTION_TYPE: "SALE", AMOUNT: "3.00", CC_EXPIRES: "1299" });
    expect(Object.fromEntries(missing.fields)).toMatchObject({ Result: "MISSING", MISSING: "CC_NUM" });
    const forged = await sdkPost(
      sandbox,
      { TRANSACTION_TYPE: "SALE", AMOUNT: "3.00", ...card },
      { secretKey: "WRONG" },
    );
    expect(Object.fromEntries(forged.fields)).toMatchObject({ Result: "ERROR", MESSAGE: "SECURITY ERROR" });
    // An ACH sale from ACH_ROUTING / ACH_ACCOUNT, sealed with MD5 as an older SDK would.
    const ach = await sdkPost(
      sandbox,
      {
        TRANSACTION_TYPE: "SALE",
        PAYMENT_TYPE: "ACH",
        AMOUNT: "7.00",
        ACH_ROUTING: "123456780",
        ACH_ACCOUNT: "1234567890",
        ACH_ACCOUNT_TYPE: "S",
        DOC_TYPE: "WEB",
      },
      { hashType: "MD5" },
    );
    expect(Object.fromEntries(ach.fields)).toMatchObject({
      Result: "APPROVED",
      PAYMENT_ACCOUNT: "S:123456780:xxxxxx7890",
    });
    expect(validBpStamp(ach.fields)).toBe(true);
  });
});
