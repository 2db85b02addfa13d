import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ledgerAmount } from "./ledger-effect.js";
import {
  MONTH_TO_DATE_COLUMNS,
  addFiguresDeltas,
  codeTypesOfBucket,
  entryFiguresDelta,
  offsettingLedgerAmount,
  shouldArchiveAtZero,
  zeroFiguresDelta,
} from "./customer-figures.js";
import { CODE_TYPES } from "../codes/code-types.js";
import { toAmount } from "../money/money.js";

const payment = {
  codeType: "payment",
  amount: "20.00",
  ledgerAmount: "-20.00",
  serviceDate: "2026-03-02",
} as const;
const charge = {
  codeType: "charge",
  amount: "45.00",
  ledgerAmount: "45.00",
  serviceDate: "2026-03-01",
} as const;

describe("customer figures", () => {
  it("moves balance, tallies, the code type's bucket and the last pay date for a posting", () => {
    expect(entryFiguresDelta(payment, "post")).toEqual({
      balance: "-20.00",
      entries: 1,
      amountTotal: "20.00",
      monthToDate: {
        charges: "0.00",
        payments: "20.00",
        credit_adjustments: "0.00",
        debit_adjustments: "0.00",
      },
      lastPayDate: "2026-03-02",
    });
    expect(entryFiguresDelta(charge, "remove")).toMatchObject({
      balance: "-45.00",
      entries: -1,
      amountTotal: "-45.00",
      monthToDate: { charges: "-45.00" },
      lastPayDate: null,
    });
  });

  it("takes a voided payment back out of payments without moving the last pay date", () => {
    const voiding = { ...payment, ledgerAmount: offsettingLedgerAmount(payment.ledgerAmount) };
    expect(entryFiguresDelta(voiding, "post")).toMatchObject({
      balance: "20.00",
      entries: 1,
      amountTotal: "20.00",
      monthToDate: { payments: "-20.00" },
      lastPayDate: null,
    });
    // Deleting the voiding entry puts the payment back in the bucket.
    expect(entryFiguresDelta(voiding, "remove").monthToDate.payments).toBe("20.00");
  });

  it("posting then removing any entry leaves every figure where it was", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CODE_TYPES),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.boolean(),
        (codeType, cents, offsetting) => {
          const amount = toAmount((cents / 100).toFixed(2));
          const signed = ledgerAmount(codeType, amount);
          const entry = {
            codeType,
            amount,
            ledgerAmount: offsetting ? offsettingLedgerAmount(signed) : signed,
            serviceDate: "2026-01-01",
          };
          const net = addFiguresDeltas(entryFiguresDelta(entry, "post"), entryFiguresDelta(entry, "remove"));
          expect({ ...net, lastPayDate: null }).toEqual(zeroFiguresDelta());
        },
      ),
    );
  });

  it("keeps the latest pay date when deltas add up", () => {
    const later = entryFiguresDelta({ ...payment, serviceDate: "2026-04-01" }, "post");
    expect(addFiguresDeltas(later, entryFiguresDelta(payment, "post")).lastPayDate).toBe("2026-04-01");
    expect(addFiguresDeltas(zeroFiguresDelta(), later).lastPayDate).toBe("2026-04-01");
  });

  it("has one column per bucket and knows which code types add up in each", () => {
    expect(Object.values(MONTH_TO_DATE_COLUMNS)).toEqual([
      "mtd_charges",
      "mtd_payments",
      "mtd_cr_adj",
      "mtd_db_adj",
    ]);
    expect(codeTypesOfBucket("credit_adjustments")).toEqual(["adjust", "percent_discount", "flat_discount"]);
    expect(codeTypesOfBucket("charges")).toEqual(["charge"]);
  });

  it("archives a customer marked for deletion at zero, and no other", () => {
    expect(shouldArchiveAtZero("D", "0.00")).toBe(true);
    expect(shouldArchiveAtZero("S", "0")).toBe(true);
    expect(shouldArchiveAtZero("D", "0.01")).toBe(false);
    expect(shouldArchiveAtZero(null, "0.00")).toBe(false);
  });
});
