import { describe, expect, it } from "vitest";
import { QUERY_SEAL_FIELDS, SEAL_FIELDS, sealFields, sealOf } from "./gateway-seal.js";

// Expected values from coreutils and openssl, e.g.
//   printf '%s' 'SECRET100200300400SALE3.00Bob4111111111111111' | md5sum
//   printf '%s' '100200300400SALE3.00Bob4111111111111111' | openssl dgst -sha512 -hmac SECRET
const SALE = {
  ACCOUNT_ID: "100200300400",
  TRANS_TYPE: "SALE",
  AMOUNT: "3.00",
  NAME1: "Bob",
  PAYMENT_ACCOUNT: "4111111111111111",
};

describe("the tamper-proof seal", () => {
  it("HMAC types: the secret key is the key, the sealed fields' values the message", () => {
    expect(sealOf("SECRET", "HMAC_SHA512", SALE, SEAL_FIELDS)).toBe(
      "a59b0036f38f977160d9460b75ce8be92bc6d34bf140deb44dac2f3f320eb81bb0c43c6d3be551381b1a6874c500befd70e228a98e65a260b51c84256250f2aa",
    );
    expect(sealOf("SECRET", "HMAC_SHA256", SALE, SEAL_FIELDS)).toBe(
      "0007e6960306f4d5b394097e81bb619d762e54cc985c28c1e07bfb25c55d26af",
    );
  });

  it("MD5/SHA types: the secret key prepended to the values, absent fields empty", () => {
    expect(sealOf("SECRET", "MD5", SALE, SEAL_FIELDS)).toBe("ed1cdc0edcf6210743cad2f629621928");
    expect(sealOf("SECRET", "SHA256", SALE, SEAL_FIELDS)).toBe(
      "ad48c434baff4a9fb04632a9850cc2a5467d5d1d606dacbe9932592be074ea5d",
    );
    expect(sealOf("SECRET", "SHA512", SALE, SEAL_FIELDS)).toBe(
      "92533458c7c68e82b8495e42f5a9eaba8e34b216f598587b67393629a7aa2ee8d85aab19e5f71ca5742e9b67c48a7d3ee95054fb9fcbe72b42ae926c0be53e1d",
    );
    // printf '%s' 'SECRET100200300400REFUND100000000001' | md5sum
    const refund = { ACCOUNT_ID: "100200300400", TRANS_TYPE: "REFUND", MASTER_ID: "100000000001", CITY: "x" };
    expect(sealOf("SECRET", "MD5", refund, SEAL_FIELDS)).toBe("cb8f9f395708f6122d26b49169996410");
  });

  it("stq seals its account and dates; every request names its hash and sealed fields", () => {
    const query = {
      ACCOUNT_ID: "100200300400",
      REPORT_START_DATE: "2030-06-14",
      REPORT_END_DATE: "2030-06-16",
    };
    expect(sealOf("SECRET", "MD5", query, QUERY_SEAL_FIELDS)).toBe("e00d5bd763137204bc08a8accd962943");
    expect(sealFields("SECRET", "HMAC_SHA512", query, QUERY_SEAL_FIELDS)).toEqual({
      ...query,
      TPS_HASH_TYPE: "HMAC_SHA512",
      TPS_DEF: "ACCOUNT_ID REPORT_START_DATE REPORT_END_DATE",
      TAMPER_PROOF_SEAL:
        "94ecc2c828fc6c0b54d0754f94ec8795e09de225f5587af55e4ddff5ef6e266cfcb59986efe72d138277b74c336772eb883c79305657c8269e1304af402f3a19",
    });
  });
});
