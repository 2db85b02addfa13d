import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox, type SandboxOptions } from "./bluepay-sandbox.js";
import { DEMO_ACCOUNT } from "./sandbox-accounts.js";
import {
  CARD,
  EXPIRE,
  JUNE_2030,
  sale,
  seal,
  transaction,
  type Answer,
  type TestHashType,
} from "./test-support/protocol-client.js";

// bp20post's answer by RESPONSEVERSION, its BP_STAMP checked the way BluePay's SDKs check it, and
// the MESSAGE wording of BluePay_MESSAGE_values.txt.

const running: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

let clock = JUNE_2030;
async function sandboxWith(options: SandboxOptions = {}): Promise<Sandbox> {
  clock = JUNE_2030;
  const sandbox = await startSandbox({ now: () => new Date(clock), ...options });
  running.push(sandbox);
  return sandbox;
}

/**
 * validBPStamp of BluePay's SDKs (2018): split BP_STAMP_DEF on spaces, concatenate those fields'
 * values from the answer, hash with the answer's TPS_HASH_TYPE keyed/prefixed by the secret key,
 * compare upper-case.
 */
function validBpStamp(answer: Map<string, string>, secretKey: string): boolean {
  const def = answer.get("BP_STAMP_DEF") ?? "";
  const values = Object.fromEntries(answer);
  const names = def.split(" ");
  const hashType = (answer.get("TPS_HASH_TYPE") ?? "") as TestHashType;
  return seal(secretKey, values, names, hashType).toUpperCase() === answer.get("BP_STAMP");
}

const names = (answer: Answer) => [...answer.fields.keys()];

describe("answer fields by RESPONSEVERSION", () => {
  it("answers only TRANS_ID, STATUS, AVS, CVV2, MESSAGE and REBID without a version", async () => {
    const sandbox = await sandboxWith();
    const answer = await sale(sandbox, "3.00", { RESPONSEVERSION: "" });
    expect(names(answer)).toEqual(["TRANS_ID", "STATUS", "AVS", "CVV2", "MESSAGE", "REBID"]);
    // VERSION counts when RESPONSEVERSION is absent (sent empty here).
    const viaVersion = await sale(sandbox, "5.00", { RESPONSEVERSION: "", VERSION: "3" });
    expect(viaVersion.fields.has("AUTH_CODE")).toBe(true);
    expect(viaVersion.fields.has("BP_STAMP")).toBe(true);
  });

  it("adds AUTH_CODE, the mask, card type and type with a version; BP_STAMP from 3; STORED_ID from 8", async () => {
    const sandbox = await sandboxWith();
    const one = await sale(sandbox, "3.00", { RESPONSEVERSION: "1" });
    expect(names(one)).toEqual([
      "TRANS_ID",
      "STATUS",
      "AVS",
      "CVV2",
      "MESSAGE",
      "REBID",
      "AUTH_CODE",
      "PAYMENT_ACCOUNT_MASK",
      "CARD_TYPE",
      "TRANS_TYPE",
    ]);
    const three = await sale(sandbox, "5.00", { RESPONSEVERSION: "3" });
    expect(names(three).slice(-3)).toEqual(["BP_STAMP_DEF", "TPS_HASH_TYPE", "BP_STAMP"]);
    expect(three.fields.has("STORED_ID")).toBe(false);
    const eight = await sale(sandbox, "7.00", {
      RESPONSEVERSION: "8",
      STORED_INDICATOR: "F",
      STORED_TYPE: "C",
    });
    expect(eight.fields.get("STORED_ID")).toMatch(/^TESTID\d+$/);
    expect(eight.fields.get("BP_STAMP_DEF")).toContain("STORED_ID");
  });

  it("seals the answer so BluePay's SDK check passes, with the request's hash type, and any change fails it", async () => {
    const sandbox = await sandboxWith();
    for (const [n, hashType] of (
      ["HMAC_SHA512", "HMAC_SHA256", "SHA512", "SHA256", "MD5"] as const
    ).entries()) {
      const answer = await sale(sandbox, `${2 * n + 1}.00`, {
        RESPONSEVERSION: "8",
        TPS_HASH_TYPE: hashType,
      });
      expect(answer.fields.get("TPS_HASH_TYPE")).toBe(hashType);
      expect(answer.fields.get("BP_STAMP")).toMatch(/^[0-9A-F]+$/);
      expect(validBpStamp(answer.fields, DEMO_ACCOUNT.secretKey), hashType).toBe(true);
      const forged = new Map(answer.fields).set("STATUS", answer.fields.get("STATUS") === "1" ? "0" : "1");
      expect(validBpStamp(forged, DEMO_ACCOUNT.secretKey)).toBe(false);
      expect(validBpStamp(answer.fields, "ANOTHER-SECRET")).toBe(false);
    }
    // BP_STAMP_DEF sent with the request chooses the fields.
    const chosen = await sale(sandbox, "11.00", {
      RESPONSEVERSION: "3",
      BP_STAMP_DEF: "TRANS_ID STATUS MESSAGE",
    });
    expect(chosen.fields.get("BP_STAMP_DEF")).toBe("TRANS_ID STATUS MESSAGE");
    expect(validBpStamp(chosen.fields, DEMO_ACCOUNT.secretKey)).toBe(true);
    // A DUPLICATE answer is sealed too, over its own MESSAGE.
    const again = await sale(sandbox, "11.00", { RESPONSEVERSION: "3" });
    expect([again.fields.get("MESSAGE"), validBpStamp(again.fields, DEMO_ACCOUNT.secretKey)]).toEqual([
      "DUPLICATE",
      true,
    ]);
  });
});

describe("BluePay's MESSAGE wording", () => {
  it("answers SECURITY ERROR on a bad seal and Unable to locate account on an unknown one", async () => {
    const sandbox = await sandboxWith();
    const badSeal = await sale(sandbox, "3.00", {}, "NOT-THE-SECRET");
    const unknown = await sale(sandbox, "3.00", { ACCOUNT_ID: "999999999999" });
    expect([badSeal.httpStatus, badSeal.fields.get("STATUS"), badSeal.fields.get("MESSAGE")]).toEqual([
      400,
      "E",
      "SECURITY ERROR",
    ]);
    expect([unknown.fields.get("STATUS"), unknown.fields.get("MESSAGE")]).toEqual([
      "E",
      "Unable to locate account",
    ]);
    expect(sandbox.transactions()).toEqual([]);
  });

  it("takes TPS_HASH_TYPE over the account's setting (an MD5 account sealed with HMAC_SHA256)", async () => {
    const md5Account = {
      accountId: "100000000091",
      secretKey: "MD5ACCOUNTSECRETKEY0000000000091",
      hashType: "MD5" as const,
    };
    const sandbox = await sandboxWith({ accounts: [md5Account] });
    const on = { ACCOUNT_ID: md5Account.accountId };
    const named = await sale(sandbox, "3.00", { ...on, TPS_HASH_TYPE: "HMAC_SHA256" }, md5Account.secretKey);
    expect(named.fields.get("STATUS")).toBe("1");
    // Sealed with MD5 but naming HMAC_SHA256: the named type decides, so the seal is wrong.
    const fields = { ...on, MODE: "TEST", AMOUNT: "5.00", PAYMENT_ACCOUNT: CARD, CARD_EXPIRE: EXPIRE };
    const sealNames = ["ACCOUNT_ID", "TRANS_TYPE", "AMOUNT", "MASTER_ID", "NAME1", "PAYMENT_ACCOUNT"];
    const mixed = await fetch(sandbox.bp20postUrl, {
      method: "POST",
      body: new URLSearchParams({
        ...fields,
        TPS_HASH_TYPE: "HMAC_SHA256",
        TAMPER_PROOF_SEAL: seal(md5Account.secretKey, fields, sealNames, "MD5"),
      }),
    });
    expect(await mixed.text()).toContain("MESSAGE=SECURITY%20ERROR");
  });

  it("refuses an ACH AUTH, $0.00 or not, as BluePay does; a $0.00 card AUTH stores the card", async () => {
    const sandbox = await sandboxWith();
    const ach = { TRANS_TYPE: "AUTH", PAYMENT_TYPE: "ACH", PAYMENT_ACCOUNT: "C:123456780:1234567890" };
    for (const amount of ["0.00", "3.00"]) {
      const answer = await transaction(sandbox, { ...ach, AMOUNT: amount });
      expect([answer.httpStatus, answer.fields.get("STATUS"), answer.fields.get("MESSAGE")]).toEqual([
        400,
        "E",
        "AUTH not supported for ACH",
      ]);
    }
    const card = await transaction(sandbox, {
      TRANS_TYPE: "AUTH",
      AMOUNT: "0.00",
      PAYMENT_ACCOUNT: CARD,
      CARD_EXPIRE: EXPIRE,
    });
    expect(card.fields.get("MESSAGE")).toBe("INFORMATION STORED");
    expect(sandbox.transactions()).toHaveLength(1);
  });
});

describe("charging again without the account", () => {
  const card = { PAYMENT_ACCOUNT: CARD, CARD_EXPIRE: EXPIRE, RESPONSEVERSION: "8" };

  it("keeps a MASTER_ID's card three years from the transaction that stored it; a later approval renews it", async () => {
    const sandbox = await sandboxWith();
    const stored = await transaction(sandbox, { TRANS_TYPE: "AUTH", AMOUNT: "0.00", ...card });
    const storedId = stored.fields.get("TRANS_ID") ?? "";
    clock += 2 * 365 * 86_400_000;
    const later = await transaction(sandbox, { AMOUNT: "3.00", MASTER_ID: storedId });
    expect(later.fields.get("STATUS")).toBe("1");
    clock += 367 * 86_400_000; // three years and a day after the AUTH
    const expired = await transaction(sandbox, { AMOUNT: "5.00", MASTER_ID: storedId });
    expect([expired.fields.get("STATUS"), expired.fields.get("MESSAGE")]).toEqual([
      "E",
      "Error reading master transaction",
    ]);
    const renewed = await transaction(sandbox, {
      AMOUNT: "5.00",
      MASTER_ID: later.fields.get("TRANS_ID") ?? "",
    });
    expect(renewed.fields.get("STATUS")).toBe("1");
  });

  it("stores a customer token with NEW_CUST_TOKEN and charges it with CUST_TOKEN, answering CUST_TOKEN from 8", async () => {
    const sandbox = await sandboxWith();
    const made = await transaction(sandbox, {
      TRANS_TYPE: "AUTH",
      AMOUNT: "0.00",
      NEW_CUST_TOKEN: "cust-42",
      ...card,
    });
    expect([made.fields.get("MESSAGE"), made.fields.get("CUST_TOKEN")]).toEqual([
      "INFORMATION STORED",
      "cust-42",
    ]);
    const again = await transaction(sandbox, {
      TRANS_TYPE: "AUTH",
      AMOUNT: "0.00",
      NEW_CUST_TOKEN: "cust-42",
      ...card,
    });
    expect(again.fields.get("MESSAGE")).toBe("Customer Tokens must be unique");
    const charged = await transaction(sandbox, {
      AMOUNT: "3.00",
      CUST_TOKEN: "cust-42",
      RESPONSEVERSION: "8",
    });
    expect(Object.fromEntries(charged.fields)).toMatchObject({
      STATUS: "1",
      PAYMENT_ACCOUNT_MASK: "xxxxxxxxxxxx1111",
      CUST_TOKEN: "cust-42",
    });
    const unknown = await transaction(sandbox, { AMOUNT: "3.00", CUST_TOKEN: "nobody" });
    expect(unknown.fields.get("MESSAGE")).toBe("Invalid CUST_TOKEN");
  });
});
