import { describe, expect, it } from "vitest";
import { billLineDescription } from "./offset-line.js";

describe("billLineDescription", () => {
  it("keeps an ordinary entry's own description", () => {
    expect(billLineDescription("Lawn care", null)).toBe("Lawn care");
  });

  it("names what a reversal or void takes back and its date, then the entry's own words", () => {
    const payment = { kind: "reversal", codeType: "payment", code: 200, serviceDate: "2026-11-03" } as const;
    expect(billLineDescription("REVERSAL: Check 1042", payment)).toBe(
      "Reversal of payment of 11/03/2026 · Check 1042",
    );
    expect(billLineDescription("ACH return R01 Insufficient funds", payment)).toBe(
      "Reversal of payment of 11/03/2026 · ACH return R01 Insufficient funds",
    );
    expect(
      billLineDescription("VOID: ", {
        kind: "void",
        codeType: "charge",
        code: -1,
        serviceDate: "2026-10-31",
      }),
    ).toBe("Void of late fee of 10/31/2026");
    expect(
      billLineDescription("VOID: Credit", {
        kind: "void",
        codeType: "adjust",
        code: 301,
        serviceDate: "2026-10-02",
      }),
    ).toBe("Void of credit of 10/02/2026 · Credit");
  });
});
