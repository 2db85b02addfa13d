import { describe, expect, it } from "vitest";
import {
  CARD_NUMBER_MESSAGE,
  PAYMENT_AMOUNT_MESSAGE,
  ROUTING_MESSAGE,
  SAVED_METHOD_TO_STORE_MESSAGE,
  cardExpired,
  isRoutingNumber,
  paymentPayloadSchema,
} from "./payment-schemas.js";

const card = { paymentMethod: "cc", ccNum: "4111 1111 1111 1111", cvv: "123", expMonth: "09", expYear: "30" };

function issuesOf(input: Record<string, unknown>): Record<string, string[]> {
  const parsed = paymentPayloadSchema.safeParse(input);
  if (parsed.success) return {};
  const issues: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (issues[issue.path.join(".")] ??= []).push(issue.message);
  return issues;
}

describe("the payment payload", () => {
  it("takes a card as people type it and keeps only its digits", () => {
    const parsed = paymentPayloadSchema.parse({ ...card, amount: "12.5" });
    expect(parsed.ccNum).toBe("4111111111111111");
    expect(parsed.amount).toBe("12.50");
    expect(parsed.recordPayment).toBe(false);
  });

  it("refuses a card number that fails the Luhn check, and a payment of nothing", () => {
    expect(issuesOf({ ...card, ccNum: "4111111111111112", amount: "0" })).toEqual({
      ccNum: [CARD_NUMBER_MESSAGE],
      amount: [PAYMENT_AMOUNT_MESSAGE],
    });
  });

  it("stores a method with a zero amount, but never 'the saved one'", () => {
    expect(issuesOf({ ...card, amount: "0", recordPayment: true })).toEqual({});
    expect(issuesOf({ paymentMethod: "useSaved", amount: "0", recordPayment: true })).toEqual({
      paymentMethod: [SAVED_METHOD_TO_STORE_MESSAGE],
    });
  });

  it("checks the routing number's check digit", () => {
    expect(isRoutingNumber("021000021")).toBe(true);
    expect(isRoutingNumber("021000022")).toBe(false);
    expect(
      issuesOf({
        paymentMethod: "check",
        checkRoutingNum: "021000022",
        checkAccountNum: "12345678",
        amount: "5",
      }),
    ).toEqual({ checkRoutingNum: [ROUTING_MESSAGE] });
  });

  it("treats a card as good through the last day of its expiry month", () => {
    expect(cardExpired("11", "26", "2026-11-30")).toBe(false);
    expect(cardExpired("10", "26", "2026-11-01")).toBe(true);
    expect(cardExpired("01", "27", "2026-12-31")).toBe(false);
  });
});
