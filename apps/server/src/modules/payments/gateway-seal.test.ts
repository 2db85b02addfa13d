import { describe, expect, it } from "vitest";
import { QUERY_SEAL_FIELDS, sealOf } from "./gateway-seal.js";

describe("the tamper-proof seal", () => {
  it("is md5(SECRET_KEY + ACCOUNT_ID + TRANS_TYPE + AMOUNT + MASTER_ID + NAME1 + PAYMENT_ACCOUNT), absent fields empty", () => {
    // Expected values from coreutils: printf '%s' 'SECRET100200300400SALE3.00Bob4111111111111111' | md5sum
    const fields = {
      ACCOUNT_ID: "100200300400",
      TRANS_TYPE: "SALE",
      AMOUNT: "3.00",
      NAME1: "Bob",
      PAYMENT_ACCOUNT: "4111111111111111",
    };
    expect(sealOf("SECRET", fields)).toBe("ed1cdc0edcf6210743cad2f629621928");
    // printf '%s' 'SECRET100200300400REFUND100000000001' | md5sum
    expect(
      sealOf("SECRET", {
        ACCOUNT_ID: "100200300400",
        TRANS_TYPE: "REFUND",
        MASTER_ID: "100000000001",
        CITY: "x",
      }),
    ).toBe("cb8f9f395708f6122d26b49169996410");
    // printf '%s' 'SECRET1002003004002030-06-142030-06-16' | md5sum
    const query = {
      ACCOUNT_ID: "100200300400",
      REPORT_START_DATE: "2030-06-14",
      REPORT_END_DATE: "2030-06-16",
    };
    expect(sealOf("SECRET", query, QUERY_SEAL_FIELDS)).toBe("e00d5bd763137204bc08a8accd962943");
  });
});
