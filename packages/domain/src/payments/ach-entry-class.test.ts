import { describe, expect, it } from "vitest";
import { achEntryClass, achRefundClass } from "./ach-entry-class.js";
import { cardExpiresBefore, monthAfter, nextChargeDate } from "./expiring-cards.js";

describe("achEntryClass", () => {
  const debit = (
    source: "page" | "staff" | "bulk" | "autopay",
    extra: Partial<Parameters<typeof achEntryClass>[0]> = {},
  ) => achEntryClass({ source, company: "", signedAgreement: false, ...extra });

  it("WEB on the public page, TEL keyed by staff, PPD only with a signed agreement, CCD for a company", () => {
    expect(debit("page")).toBe("WEB");
    expect(debit("staff")).toBe("TEL");
    expect(debit("staff", { signedAgreement: true })).toBe("PPD");
    expect(debit("page", { signedAgreement: true })).toBe("WEB");
    for (const source of ["page", "staff", "bulk", "autopay"] as const)
      expect(debit(source, { company: "Acme LLC", signedAgreement: true })).toBe("CCD");
  });

  it("a card run or autopay debit goes under the class the account was stored under", () => {
    expect(debit("autopay", { storedClass: "TEL" })).toBe("TEL");
    expect(debit("bulk", { storedClass: "WEB" })).toBe("WEB");
    expect(debit("autopay", { storedClass: "" })).toBe("TEL");
    expect(debit("autopay", { storedClass: "TEL", signedAgreement: true })).toBe("PPD");
  });

  it("a refund is a credit: PPD for a consumer, CCD for a business", () => {
    expect(["WEB", "TEL", "PPD", ""].map(achRefundClass)).toEqual(["PPD", "PPD", "PPD", "PPD"]);
    expect(achRefundClass("CCD")).toBe("CCD");
  });
});

describe("cards expiring before the next charge", () => {
  it("a card is good through its expiry month", () => {
    expect(cardExpiresBefore("0431", "2031-04-30")).toBe(false);
    expect(cardExpiresBefore("0431", "2031-05-01")).toBe(true);
    expect(cardExpiresBefore("1231", "2032-01-01")).toBe(true);
    expect(cardExpiresBefore("13xx", "2031-01-01")).toBe(true);
  });

  it("the next charge: the announced autopay day while ahead, else the next cycle's autopay day", () => {
    expect(monthAfter("2031-01-31")).toBe("2031-02-28");
    const base = { today: "2031-03-10", dateLastBilling: "2031-03-01", dueDays: 30 };
    expect(nextChargeDate({ ...base, announcedChargeOn: "2031-03-15" })).toBe("2031-03-15");
    expect(nextChargeDate({ ...base, announcedChargeOn: "2031-03-01" })).toBe("2031-05-01");
    expect(nextChargeDate({ ...base, announcedChargeOn: null, dueDays: 0 })).toBe("2031-04-02");
    expect(nextChargeDate({ ...base, announcedChargeOn: null, dateLastBilling: null })).toBe("2031-05-10");
  });
});
