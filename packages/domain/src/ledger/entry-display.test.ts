import { describe, expect, it } from "vitest";
import { addAmounts } from "../money/money.js";
import { displayedAmount, displayedDraftAmount, entryMarks, type DisplayedEntry } from "./entry-display.js";
import { ledgerAmount } from "./ledger-effect.js";
import { offsettingLedgerAmount } from "./customer-figures.js";

// An entry and its offset (a void or reversal) as the ledger posts them: same code and amount,
// opposite signed effect.
function entryAndOffset(code_type: DisplayedEntry["code_type"], amount: string) {
  const original = { code_type, ledger_amount: ledgerAmount(code_type, amount) };
  const offset = { code_type, ledger_amount: offsettingLedgerAmount(original.ledger_amount) };
  return { original, offset };
}

describe("displayed amount", () => {
  it("shows each kind of entry by its effect on the balance", () => {
    expect(displayedAmount({ code_type: "charge", ledger_amount: "45.00" })).toBe("45.00");
    expect(displayedAmount({ code_type: "debit", ledger_amount: "2.5" })).toBe("2.50");
    expect(displayedAmount({ code_type: "payment", ledger_amount: "-20.00" })).toBe("-20.00");
    expect(displayedAmount({ code_type: "adjust", ledger_amount: "-1.00" })).toBe("-1.00");
    expect(displayedAmount({ code_type: "flat_discount", ledger_amount: "-3.00" })).toBe("-3.00");
    expect(displayedAmount({ code_type: "percent_discount", ledger_amount: "-0.10" })).toBe("-0.10");
  });

  it("shows no amount for info lines", () => {
    expect(displayedAmount({ code_type: "info", ledger_amount: "0.00" })).toBeNull();
    expect(displayedDraftAmount("info", "12.00")).toBeNull();
  });

  it("shows every offset opposite its original, so the pair adds to zero as the totals do", () => {
    const kinds = ["charge", "debit", "payment", "adjust", "flat_discount", "percent_discount"] as const;
    for (const kind of kinds) {
      const { original, offset } = entryAndOffset(kind, "88.94");
      const shown = [displayedAmount(original), displayedAmount(offset)];
      expect(shown.map((amount) => amount?.startsWith("-"))).toEqual(
        kind === "charge" || kind === "debit" ? [false, true] : [true, false],
      );
      expect(addAmounts(shown[0] ?? "0", shown[1] ?? "0")).toBe("0.00");
    }
  });

  it("the issue's rows: a charge reversal -88.94, a card-payment reversal 9.00, a void -45.00", () => {
    expect(displayedAmount(entryAndOffset("charge", "88.94").offset)).toBe("-88.94");
    expect(displayedAmount(entryAndOffset("payment", "9.00").offset)).toBe("9.00");
    expect(displayedAmount(entryAndOffset("charge", "45.00").offset)).toBe("-45.00");
  });

  it("drafts show what they will post", () => {
    expect(displayedDraftAmount("charge", "12.25")).toBe("12.25");
    expect(displayedDraftAmount("payment", "20")).toBe("-20.00");
    expect(displayedDraftAmount("debit", "0.00")).toBe("0.00");
  });
});

describe("entry marks", () => {
  it("marks voided and reversed originals, and nothing else", () => {
    expect(entryMarks({ voided: false, reversed_by: null })).toEqual([]);
    expect(entryMarks({ voided: true, reversed_by: null })).toEqual(["Voided"]);
    expect(entryMarks({ voided: false, reversed_by: 12 })).toEqual(["Reversed"]);
  });
});
