import { describe, it, expect } from "vitest";
import fc from "fast-check";
import {
  addDecimals,
  compareDecimals,
  decimalFromNumber,
  formatDecimal,
  formatDecimalNormalized,
  isDecimalString,
  isNegativeDecimal,
  isZeroDecimal,
  multiplyDecimals,
  negateDecimal,
  normalizeDecimal,
  parseDecimal,
  rescaleDecimal,
  subtractDecimals,
  tryDecimalFromNumber,
  tryParseDecimal,
  type Decimal,
} from "./decimal.js";
import { MoneyError } from "./money.js";

// Independent reference: round half away from zero by looking at digit characters, not by bigint division.
function referenceRound(units: bigint, scale: number, places: number): bigint {
  if (places >= scale) return units * 10n ** BigInt(places - scale);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const dropped = scale - places;
  const kept = digits.slice(0, digits.length - dropped);
  const firstDropped = digits[digits.length - dropped] ?? "0";
  const magnitude = BigInt(kept) + (firstDropped >= "5" ? 1n : 0n);
  return negative ? -magnitude : magnitude;
}

// Writes units/10^scale by hand so parse tests do not depend on formatDecimal.
function plainString(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const body = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${body}` : body;
}

const units = fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n });
const scale = fc.integer({ min: 0, max: 12 });
const decimal = fc.record({ units, scale });
const negativeZero = /^-0(?:\.0*)?$/;

describe("parseDecimal", () => {
  it("reads units and scale", () => {
    expect(parseDecimal("12.50")).toEqual({ units: 1250n, scale: 2 });
    expect(parseDecimal("-3.00")).toEqual({ units: -300n, scale: 2 });
    expect(parseDecimal("007")).toEqual({ units: 7n, scale: 0 });
    expect(parseDecimal("-0.000")).toEqual({ units: 0n, scale: 3 });
    expect(parseDecimal("123456789012345678901234567890.123456789")).toEqual({
      units: 123456789012345678901234567890123456789n,
      scale: 9,
    });
  });

  it.each([
    "",
    "-",
    "+1",
    "1.",
    ".5",
    "1.2.3",
    " 1",
    "1 ",
    "1,000",
    "1e5",
    "0x10",
    "NaN",
    "Infinity",
    "١٢",
    "--1",
  ])("rejects %j with a MoneyError", (input) => {
    expect(tryParseDecimal(input)).toBeUndefined();
    expect(isDecimalString(input)).toBe(false);
    expect(() => parseDecimal(input)).toThrow(MoneyError);
  });

  it("names the rejected input in the message", () => {
    expect(() => parseDecimal("12,50")).toThrow(/Invalid decimal string "12,50"/);
  });

  it("round-trips any (units, scale) through its plain string", () => {
    fc.assert(
      fc.property(decimal, ({ units, scale }) => {
        const text = plainString(units, scale);
        expect(parseDecimal(text)).toEqual({ units, scale });
        expect(formatDecimal(parseDecimal(text), scale)).toBe(text);
      }),
    );
  });

  it("formats any syntactically valid string back to its canonical form", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^-?\d{1,20}(\.\d{1,10})?$/), (text) => {
        const parsed = parseDecimal(text);
        const canonical = text.replace(/^(-?)0+(?=\d)/, "$1").replace(/^-(?=0(?:\.0*)?$)/, "");
        expect(formatDecimal(parsed, parsed.scale)).toBe(canonical);
      }),
    );
  });
});

describe("decimalFromNumber", () => {
  it("goes through the shortest decimal string, not the binary expansion", () => {
    expect(decimalFromNumber(0.1)).toEqual({ units: 1n, scale: 1 });
    expect(decimalFromNumber(-2.345)).toEqual({ units: -2345n, scale: 3 });
    expect(decimalFromNumber(12)).toEqual({ units: 12n, scale: 0 });
    expect(decimalFromNumber(-0)).toEqual({ units: 0n, scale: 0 });
    expect(decimalFromNumber(0.000001)).toEqual({ units: 1n, scale: 6 });
  });

  it.each([NaN, Infinity, -Infinity, 1e21, -1e21, 1e-7, 5e-324])("rejects %s", (input) => {
    expect(tryDecimalFromNumber(input)).toBeUndefined();
    expect(() => decimalFromNumber(input)).toThrow(MoneyError);
  });

  it("agrees with String(n) and round-trips through Number for every plain-notation double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e20, max: 1e20 }), (n) => {
        fc.pre(!String(n).includes("e"));
        const parsed = decimalFromNumber(n);
        expect(formatDecimalNormalized(parsed)).toBe(
          String(n).replace(/\.?0+$/, (m) => (m.includes(".") ? "" : m)),
        );
        expect(Number(formatDecimal(parsed, parsed.scale))).toBe(n === 0 ? 0 : n);
      }),
    );
  });
});

describe("rescaleDecimal", () => {
  it("rounds half away from zero", () => {
    const round = (text: string, places: number) =>
      formatDecimal(rescaleDecimal(parseDecimal(text), places), places);
    expect(round("2.345", 2)).toBe("2.35");
    expect(round("-2.345", 2)).toBe("-2.35");
    expect(round("2.344", 2)).toBe("2.34");
    expect(round("-2.344", 2)).toBe("-2.34");
    expect(round("2.675", 2)).toBe("2.68");
    expect(round("1.005", 2)).toBe("1.01");
    expect(round("-1.005", 2)).toBe("-1.01");
    expect(round("0.5", 0)).toBe("1");
    expect(round("-0.5", 0)).toBe("-1");
    expect(round("-0.004", 2)).toBe("0.00");
    expect(round("9.995", 2)).toBe("10.00");
    expect(round("1.5", 4)).toBe("1.5000");
  });

  it("rejects a negative or fractional number of places", () => {
    expect(() => rescaleDecimal({ units: 1n, scale: 0 }, -1)).toThrow(MoneyError);
    expect(() => rescaleDecimal({ units: 1n, scale: 0 }, 1.5)).toThrow(MoneyError);
    expect(() => formatDecimal({ units: 1n, scale: 0 }, NaN)).toThrow(MoneyError);
  });

  it("agrees with a digit-string reference on generated (units, scale, places)", () => {
    fc.assert(
      fc.property(decimal, fc.integer({ min: 0, max: 14 }), ({ units, scale }, places) => {
        const result = rescaleDecimal({ units, scale }, places);
        expect(result).toEqual({ units: referenceRound(units, scale, places), scale: places });
      }),
      { numRuns: 500 },
    );
  });

  it("is symmetric under negation and never moves by more than half a unit", () => {
    fc.assert(
      fc.property(decimal, fc.integer({ min: 0, max: 12 }), (d, places) => {
        const rounded = rescaleDecimal(d, places);
        expect(rescaleDecimal(negateDecimal(d), places).units).toBe(-rounded.units);
        const error = subtractDecimals(rounded, d);
        const half = { units: 5n, scale: places + 1 };
        expect(compareDecimals(error, half)).toBeLessThanOrEqual(0);
        expect(compareDecimals(negateDecimal(error), half)).toBeLessThanOrEqual(0);
      }),
    );
  });
});

describe("arithmetic", () => {
  it("adds 0.1 and 0.2 exactly", () => {
    expect(formatDecimal(addDecimals(parseDecimal("0.1"), parseDecimal("0.2")), 2)).toBe("0.30");
    expect(formatDecimal(addDecimals(decimalFromNumber(0.1), decimalFromNumber(0.2)), 2)).toBe("0.30");
  });

  it("aligns scales", () => {
    expect(addDecimals(parseDecimal("1.5"), parseDecimal("0.25"))).toEqual({ units: 175n, scale: 2 });
    expect(subtractDecimals(parseDecimal("1"), parseDecimal("0.001"))).toEqual({ units: 999n, scale: 3 });
    expect(multiplyDecimals(parseDecimal("0.33333"), parseDecimal("3"))).toEqual({ units: 99999n, scale: 5 });
    expect(compareDecimals(parseDecimal("1.10"), parseDecimal("1.1"))).toBe(0);
    expect(compareDecimals(parseDecimal("-2"), parseDecimal("1.999"))).toBe(-1);
  });

  it("has the predicates one expects", () => {
    expect(isZeroDecimal(parseDecimal("-0.00"))).toBe(true);
    expect(isNegativeDecimal(parseDecimal("-0.00"))).toBe(false);
    expect(isNegativeDecimal(parseDecimal("-0.01"))).toBe(true);
    expect(normalizeDecimal(parseDecimal("1.500"))).toEqual({ units: 15n, scale: 1 });
    expect(formatDecimalNormalized(parseDecimal("-0.000"))).toBe("0");
    expect(formatDecimalNormalized(parseDecimal("100"))).toBe("100");
  });

  it("add and subtract are inverse, commutative and associative", () => {
    fc.assert(
      fc.property(decimal, decimal, decimal, (a, b, c) => {
        expect(compareDecimals(subtractDecimals(addDecimals(a, b), b), a)).toBe(0);
        expect(addDecimals(a, b)).toEqual(addDecimals(b, a));
        expect(addDecimals(addDecimals(a, b), c)).toEqual(addDecimals(a, addDecimals(b, c)));
      }),
    );
  });

  it("multiplication distributes over addition", () => {
    fc.assert(
      fc.property(decimal, decimal, decimal, (a, b, c) => {
        const left = multiplyDecimals(a, addDecimals(b, c));
        const right = addDecimals(multiplyDecimals(a, b), multiplyDecimals(a, c));
        expect(compareDecimals(left, right)).toBe(0);
      }),
    );
  });

  it("compare is antisymmetric and matches the sign of the difference", () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const order = compareDecimals(a, b);
        expect(compareDecimals(b, a)).toBe(order === 0 ? 0 : -order); // avoid -0, which toBe distinguishes
        expect(compareDecimals(a, rescaleDecimal(a, a.scale + 3))).toBe(0);
        const difference = subtractDecimals(a, b);
        const sign = isZeroDecimal(difference) ? 0 : isNegativeDecimal(difference) ? -1 : 1;
        expect(order).toBe(sign);
      }),
    );
  });

  it("negating twice is the identity", () => {
    fc.assert(
      fc.property(decimal, (d: Decimal) => {
        expect(negateDecimal(negateDecimal(d))).toEqual(d);
      }),
    );
  });

  it("never formats a negative zero", () => {
    fc.assert(
      fc.property(decimal, fc.integer({ min: 0, max: 6 }), (d, places) => {
        expect(formatDecimal(d, places)).not.toMatch(negativeZero);
        expect(formatDecimal(negateDecimal(d), places)).not.toMatch(negativeZero);
        expect(formatDecimalNormalized(d)).not.toMatch(negativeZero);
      }),
    );
    expect(formatDecimal(parseDecimal("-0"), 2)).toBe("0.00");
    expect(formatDecimal(parseDecimal("-0.001"), 2)).toBe("0.00");
  });
});
