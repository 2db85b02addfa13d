import { describe, expect, it } from "vitest";
import type { GatewayQueryTransaction } from "./gateway-answer.js";
import {
  LOOKUP_WINDOW_MS,
  lookupMismatches,
  needsCheckingAtGateway,
  unusableAnswerReason,
  type SentAttempt,
} from "./lost-answers.js";

const SENT: SentAttempt = {
  orderId: "k3v7x2m9qa-41",
  amount: "41.00",
  transType: "SALE",
  mask: "xxxxxxxxxxxx1111",
};

function record(changes: Partial<GatewayQueryTransaction> = {}): GatewayQueryTransaction {
  return {
    transId: "100000000123",
    status: "approved",
    rawStatus: "1",
    transType: "SALE",
    paymentType: "CREDIT",
    amount: "41.00",
    orderId: "k3v7x2m9qa-41",
    invoiceId: "",
    message: "Approved Sale",
    mask: "xxxxxxxxxxxx1111",
    cardType: "VISA",
    authCode: "A1",
    issueDate: "2026-11-28 10:00:00",
    masterId: "",
    ...changes,
  };
}

describe("a lookup's record settles an attempt only when it is that attempt's", () => {
  it("matches on order id, amount (as money), type and the account's last four digits", () => {
    expect(lookupMismatches(record({ amount: "41" }), SENT)).toEqual([]);
    expect(lookupMismatches(record({ orderId: "41" }), SENT)).toEqual(["order id 41"]);
    expect(lookupMismatches(record({ amount: "11.00" }), SENT)).toEqual(["amount 11.00"]);
    expect(lookupMismatches(record({ transType: "AUTH" }), SENT)).toEqual(["type AUTH"]);
    expect(lookupMismatches(record({ mask: "xxxxxxxxxxxx4242" }), SENT)).toEqual([
      "account xxxxxxxxxxxx4242",
    ]);
    // Nothing known of the account is not a match.
    expect(lookupMismatches(record(), { ...SENT, mask: "" })).toEqual(["account xxxxxxxxxxxx1111"]);
    // A VOID has no amount of its own; ACH masks compare by the account's last four.
    expect(
      lookupMismatches(record({ transType: "VOID", amount: "" }), { ...SENT, transType: "VOID" }),
    ).toEqual([]);
    expect(
      lookupMismatches(record({ mask: "C:123456789:xxxx6789" }), { ...SENT, mask: "C:123456789:xxxx6789" }),
    ).toEqual([]);
  });
});

describe("answers that cannot be taken as the outcome", () => {
  it("are STATUS=1 without a TRANS_ID and any STATUS outside 1, 0 and E", () => {
    expect(unusableAnswerReason({ rawStatus: "1", transId: "100000000001" })).toBeNull();
    expect(unusableAnswerReason({ rawStatus: "0", transId: "" })).toBeNull();
    expect(unusableAnswerReason({ rawStatus: "E", transId: "" })).toBeNull();
    expect(unusableAnswerReason({ rawStatus: "1", transId: " " })).toMatch(/without a TRANS_ID/);
    expect(unusableAnswerReason({ rawStatus: "2", transId: "100000000001" })).toMatch(/STATUS=2/);
  });

  it("an unknown attempt needs a person once the lookup window has passed", () => {
    const made = new Date("2026-11-27T23:59:00Z");
    const later = (ms: number) => new Date(made.getTime() + ms);
    expect(needsCheckingAtGateway("unknown", made, later(LOOKUP_WINDOW_MS))).toBe(false);
    expect(needsCheckingAtGateway("unknown", made, later(LOOKUP_WINDOW_MS + 1))).toBe(true);
    expect(needsCheckingAtGateway("pending", made, later(LOOKUP_WINDOW_MS + 1))).toBe(false);
  });
});
