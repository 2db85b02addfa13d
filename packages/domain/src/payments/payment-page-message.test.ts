import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gatewayStatusOf, type GatewayStatus } from "./gateway-answer.js";
import { pageSaysApproved, paymentPageMessage } from "./payment-page-message.js";

describe("the payment page's approval rule", () => {
  it("is approved when the message contains 'approved' or 'auth/tkt', in any case", () => {
    expect(pageSaysApproved("Approved Sale")).toBe(true);
    expect(pageSaysApproved("AUTH/TKT 012345")).toBe(true);
    expect(pageSaysApproved("Declined")).toBe(false);
    expect(pageSaysApproved("DUPLICATE")).toBe(false);
    expect(pageSaysApproved("INFORMATION STORED")).toBe(false);
  });
});

describe("the message the server gives the page", () => {
  it("keeps the gateway's text when it already agrees with STATUS", () => {
    expect(paymentPageMessage({ status: "approved", message: "Approved Sale" })).toBe("Approved Sale");
    expect(paymentPageMessage({ status: "approved", message: "AUTH/TKT 012345" })).toBe("AUTH/TKT 012345");
    expect(paymentPageMessage({ status: "declined", message: "Declined" })).toBe("Declined");
    expect(paymentPageMessage({ status: "error", message: "Invalid CARD_EXPIRE" })).toBe(
      "Invalid CARD_EXPIRE",
    );
    expect(paymentPageMessage({ status: "duplicate", message: "DUPLICATE" })).toBe("DUPLICATE");
  });

  it("marks an approval whose text lacks the words (a 0.00 AUTH answers INFORMATION STORED)", () => {
    expect(paymentPageMessage({ status: "approved", message: "INFORMATION STORED" })).toBe(
      "Approved: INFORMATION STORED",
    );
    expect(paymentPageMessage({ status: "approved", message: "" })).toBe("Approved");
  });

  it("replaces a refusal whose text would read as approved on the page", () => {
    expect(paymentPageMessage({ status: "declined", message: "NOT APPROVED" })).toBe("Declined");
    expect(paymentPageMessage({ status: "error", message: "auth/tkt mismatch" })).toBe(
      "The payment could not be processed",
    );
    expect(paymentPageMessage({ status: "declined", message: " " })).toBe("Declined");
  });

  it("always agrees with the decision STATUS made, whatever the gateway wrote", () => {
    const words = fc.constantFrom("approved", "APPROVED", "Auth/Tkt", "DUPLICATE", "declined", "x", " ", "");
    const message = fc.array(fc.oneof(words, fc.string()), { maxLength: 4 }).map((parts) => parts.join(" "));
    const rawStatus = fc.constantFrom("1", "0", "E", "", "2");
    fc.assert(
      fc.property(rawStatus, message, (raw, text) => {
        const status: GatewayStatus = gatewayStatusOf(raw, text);
        expect(pageSaysApproved(paymentPageMessage({ status, message: text }))).toBe(status === "approved");
      }),
    );
  });
});
