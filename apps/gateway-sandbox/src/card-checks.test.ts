import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  cardTypeOf,
  checkExpiry,
  fingerprintOf,
  formatCents,
  isCardNumber,
  maskAch,
  maskDigits,
  parseAchAccount,
  parseAmountCents,
  routingValid,
  testModeApproves,
} from "./card-checks.js";

describe("card numbers", () => {
  it("accepts the usual test cards and refuses a wrong check digit or a wrong length", () => {
    for (const card of ["4111111111111111", "5454545454545454", "378282246310005", "6011111111111117"])
      expect(isCardNumber(card)).toBe(true);
    expect(isCardNumber("4111111111111112")).toBe(false);
    expect(isCardNumber("41111111111")).toBe(false);
    expect(isCardNumber("4111-1111-1111-1111")).toBe(false);
  });

  it("names the brand and masks all but the last four", () => {
    expect(cardTypeOf("4111111111111111")).toBe("VISA");
    expect(cardTypeOf("5454545454545454")).toBe("MC");
    expect(cardTypeOf("2221000000000009")).toBe("MC");
    expect(cardTypeOf("378282246310005")).toBe("AMEX");
    expect(cardTypeOf("6011111111111117")).toBe("DISC");
    expect(cardTypeOf("9999999999999995")).toBe("UNKN");
    expect(maskDigits("4111111111111111")).toBe("xxxxxxxxxxxx1111");
  });

  it("reads MMYY expiry: good through the last day of the month", () => {
    const now = new Date(Date.UTC(2030, 5, 15));
    expect(checkExpiry("0630", now)).toBe("ok");
    expect(checkExpiry("0530", now)).toBe("expired");
    expect(checkExpiry("1299", now)).toBe("ok");
    expect(checkExpiry("1330", now)).toBe("invalid");
    expect(checkExpiry("630", now)).toBe("invalid");
  });

  it("fingerprints equal accounts equally under one key and differently under another", () => {
    const key = randomBytes(32);
    expect(fingerprintOf(key, "4111111111111111")).toBe(fingerprintOf(key, "4111111111111111"));
    expect(fingerprintOf(key, "4111111111111111")).not.toBe(fingerprintOf(key, "5454545454545454"));
    expect(fingerprintOf(randomBytes(32), "4111111111111111")).not.toBe(
      fingerprintOf(key, "4111111111111111"),
    );
  });
});

describe("ACH accounts", () => {
  it("checks the routing number's check digit and masks the account", () => {
    expect(routingValid("123456780")).toBe(true);
    expect(routingValid("123456789")).toBe(false);
    const ach = parseAchAccount("C:123456780:1234567890");
    expect(ach).toEqual({ accountType: "C", routing: "123456780", account: "1234567890" });
    expect(maskAch(ach!)).toBe("C:123456780:xxxxxx7890");
    expect(parseAchAccount("S:123456780:9876")?.accountType).toBe("S");
    expect(parseAchAccount("X:123456780:1234")).toBeNull();
    expect(parseAchAccount("C:123456789:1234")).toBeNull();
  });
});

describe("amounts", () => {
  it("reads dollars with up to two decimals as cents, and nothing else", () => {
    expect(parseAmountCents("12.50")).toBe(1250n);
    expect(parseAmountCents("3")).toBe(300n);
    expect(parseAmountCents("3.5")).toBe(350n);
    expect(parseAmountCents("0.00")).toBe(0n);
    for (const bad of ["-1.00", "1.005", "abc", "", "1e3", "1,000.00", "1234567890.00"])
      expect(parseAmountCents(bad)).toBeNull();
    expect(formatCents(1250n)).toBe("12.50");
    expect(formatCents(5n)).toBe("0.05");
  });

  it("approves odd dollar amounts and declines even ones in test mode, whatever the cents", () => {
    expect(testModeApproves(300n)).toBe(true);
    expect(testModeApproves(399n)).toBe(true);
    expect(testModeApproves(200n)).toBe(false);
    expect(testModeApproves(1250n)).toBe(false);
    expect(testModeApproves(99n)).toBe(false);
  });
});
