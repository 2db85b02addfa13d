import { describe, it, expect } from "vitest";
import fc from "fast-check";
import {
  formatRateUsd,
  addAmounts,
  compareAmounts,
  formatUsd,
  isNegativeAmount,
  isValidDecimalString,
  isZeroAmount,
  maxAmount,
  minAmount,
  MoneyError,
  multiplyRateByQuantity,
  negateAmount,
  percentOf,
  roundHalfUp,
  subtractAmounts,
  sumAmounts,
  toAmount,
  toQuantity,
  toRate,
} from "./money.js";

// Reference helpers written without decimal.ts: plain strings and bigint arithmetic only.
function centsString(cents: bigint): string {
  const magnitude = (cents < 0n ? -cents : cents).toString().padStart(3, "0");
  return `${cents < 0n ? "-" : ""}${magnitude.slice(0, -2)}.${magnitude.slice(-2)}`;
}

function plainString(units: bigint, scale: number): string {
  const magnitude = (units < 0n ? -units : units).toString().padStart(scale + 1, "0");
  const body = scale === 0 ? magnitude : `${magnitude.slice(0, -scale)}.${magnitude.slice(-scale)}`;
  return units < 0n ? `-${body}` : body;
}

// Half away from zero as integer arithmetic on the magnitude: floor((2|n| + d) / 2d).
function referenceDivideRound(numerator: bigint, divisor: bigint): bigint {
  const magnitude = ((numerator < 0n ? -numerator : numerator) * 2n + divisor) / (2n * divisor);
  return numerator < 0n ? -magnitude : magnitude;
}

const cents = fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n });
const amount = cents.map(centsString);
const negativeZero = /^-0(?:\.0*)?$/;

describe("roundHalfUp", () => {
  it.each([
    ["2.345", 2, "2.35"],
    ["-2.345", 2, "-2.35"],
    ["2.675", 2, "2.68"],
    ["1.005", 2, "1.01"],
    ["-1.005", 2, "-1.01"],
    ["1.004999", 2, "1.00"],
    ["-0.005", 2, "-0.01"],
    ["-0.0049", 2, "0.00"],
    ["12.5", 0, "13"],
    ["3", 2, "3.00"],
    ["0.123456", 5, "0.12346"],
  ])("roundHalfUp(%j, %i) = %j", (value, places, expected) => {
    expect(roundHalfUp(value, places)).toBe(expected);
  });

  it("throws MoneyError for bad input or places", () => {
    expect(() => roundHalfUp("1,00", 2)).toThrow(MoneyError);
    expect(() => roundHalfUp("1", -1)).toThrow(MoneyError);
    expect(() => roundHalfUp("1", 0.5)).toThrow(MoneyError);
  });

  it("agrees with a bigint reference on generated (units, scale, places)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 10 }),
        (units, scale, places) => {
          const expected =
            places >= scale
              ? units * 10n ** BigInt(places - scale)
              : referenceDivideRound(units, 10n ** BigInt(scale - places));
          expect(roundHalfUp(plainString(units, scale), places)).toBe(plainString(expected, places));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("toAmount, toRate, toQuantity", () => {
  it("normalise strings and numbers", () => {
    expect(toAmount("12.5")).toBe("12.50");
    expect(toAmount("-3")).toBe("-3.00");
    expect(toAmount("-0.00")).toBe("0.00");
    expect(toAmount(0.1)).toBe("0.10");
    expect(toAmount(1.005)).toBe("1.01"); // the double is 1.00499999999999989..., but String(1.005) is "1.005"
    expect(toAmount(-0)).toBe("0.00");
    expect(toRate("0.1")).toBe("0.10000");
    expect(toRate(0.333333)).toBe("0.33333");
    expect(toRate("2.000005")).toBe("2.00001");
    expect(toQuantity("1.50000")).toBe("1.5");
    expect(toQuantity("2.000")).toBe("2");
    expect(toQuantity("0.123456")).toBe("0.12346");
    expect(toQuantity("0.000004")).toBe("0");
    expect(toQuantity(3)).toBe("3");
    expect(toQuantity("-1.25")).toBe("-1.25");
  });

  it.each([NaN, Infinity, 1e21, 1e-7])("toAmount(%s) throws MoneyError", (input) => {
    expect(() => toAmount(input)).toThrow(MoneyError);
  });

  it("reject malformed strings with a MoneyError", () => {
    expect(() => toAmount("$12")).toThrow(MoneyError);
    expect(() => toRate("")).toThrow(MoneyError);
    expect(() => toQuantity("1/2")).toThrow(/Invalid decimal string "1\/2"/);
    const error = (() => {
      try {
        toAmount("abc");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: "MoneyError" });
  });

  it("read any number with at most two decimals exactly", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }), (c) => {
        // c / 100 is the double nearest to c/100; its shortest string is c/100 written out.
        expect(toAmount(Number(c) / 100)).toBe(centsString(c));
      }),
    );
  });
});

describe("multiplyRateByQuantity", () => {
  it("rounds the exact product, not the rounded rate", () => {
    expect(multiplyRateByQuantity("0.33333", "3")).toBe("1.00");
    expect(multiplyRateByQuantity("10.00000", "1.5")).toBe("15.00");
    expect(multiplyRateByQuantity("0.00500", "1")).toBe("0.01");
    expect(multiplyRateByQuantity("0.00500", "-1")).toBe("-0.01");
    expect(multiplyRateByQuantity("0.00400", "1")).toBe("0.00");
    expect(multiplyRateByQuantity("0.00400", "-1")).toBe("0.00");
    expect(multiplyRateByQuantity("123.45678", "0")).toBe("0.00");
  });

  it("equals round(rate * qty) computed with a bigint reference", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        fc.bigInt({ min: -(10n ** 10n), max: 10n ** 10n }),
        fc.integer({ min: 0, max: 5 }),
        (rateUnits, quantityUnits, quantityScale) => {
          const product = rateUnits * quantityUnits; // scale 5 + quantityScale
          const expected = referenceDivideRound(product, 10n ** BigInt(3 + quantityScale));
          const result = multiplyRateByQuantity(
            plainString(rateUnits, 5),
            plainString(quantityUnits, quantityScale),
          );
          expect(result).toBe(centsString(expected));
          expect(result).not.toMatch(negativeZero);
        },
      ),
    );
  });
});

describe("percentOf", () => {
  it("computes a late fee rounded half-up to cents", () => {
    expect(percentOf("200.00", "1.5")).toBe("3.00");
    expect(percentOf("33.33", "1.5")).toBe("0.50"); // 0.49995
    expect(percentOf("-33.33", "1.5")).toBe("-0.50");
    expect(percentOf("1234.56", "100")).toBe("1234.56");
    expect(percentOf("0.01", "10")).toBe("0.00");
  });

  it("equals round(cents * percent / 100) computed with a bigint reference", () => {
    fc.assert(
      fc.property(
        cents,
        fc.bigInt({ min: 0n, max: 10n ** 7n }),
        fc.integer({ min: 0, max: 4 }),
        (c, p, ps) => {
          const expected = referenceDivideRound(c * p, 10n ** BigInt(ps + 2));
          expect(percentOf(centsString(c), plainString(p, ps))).toBe(centsString(expected));
        },
      ),
    );
  });
});

describe("sums and arithmetic on amounts", () => {
  it("adds 0.1 and 0.2 to exactly 0.30", () => {
    expect(addAmounts("0.1", "0.2")).toBe("0.30");
    expect(sumAmounts([toAmount(0.1), toAmount(0.2)])).toBe("0.30");
    expect(sumAmounts(Array.from({ length: 10 }, () => "0.10"))).toBe("1.00");
    expect(sumAmounts([])).toBe("0.00");
    expect(subtractAmounts("1.00", "1.00")).toBe("0.00");
    expect(subtractAmounts("0.30", "0.10")).toBe("0.20");
  });

  it("reads every operand as a cent amount first", () => {
    expect(addAmounts("1.005", "0")).toBe("1.01");
    expect(sumAmounts(["0.005", "0.005"])).toBe("0.02");
    expect(isZeroAmount("0.004")).toBe(true);
    expect(isZeroAmount("-0.00")).toBe(true);
    expect(isNegativeAmount("-0.004")).toBe(false);
    expect(isNegativeAmount("-0.01")).toBe(true);
    expect(compareAmounts("1.001", "1.00")).toBe(0);
  });

  it("sum equals the bigint sum of cents and does not depend on order", () => {
    fc.assert(
      fc.property(fc.array(cents, { maxLength: 30 }), (values) => {
        const amounts = values.map(centsString);
        const expected = centsString(values.reduce((total, c) => total + c, 0n));
        expect(sumAmounts(amounts)).toBe(expected);
        expect(sumAmounts([...amounts].reverse())).toBe(expected);
        expect(amounts.reduce(addAmounts, "0.00")).toBe(expected);
      }),
    );
  });

  it("addition is commutative and associative, subtraction undoes it", () => {
    fc.assert(
      fc.property(amount, amount, amount, (a, b, c) => {
        expect(addAmounts(a, b)).toBe(addAmounts(b, a));
        expect(addAmounts(addAmounts(a, b), c)).toBe(addAmounts(a, addAmounts(b, c)));
        expect(subtractAmounts(addAmounts(a, b), b)).toBe(a);
        expect(subtractAmounts(a, b)).toBe(addAmounts(a, negateAmount(b)));
      }),
    );
  });

  it("negating twice is the identity and never yields -0.00", () => {
    expect(negateAmount("0.00")).toBe("0.00");
    expect(negateAmount("-0")).toBe("0.00");
    expect(negateAmount("12.5")).toBe("-12.50");
    fc.assert(
      fc.property(amount, (a) => {
        expect(negateAmount(negateAmount(a))).toBe(a);
        expect(negateAmount(a)).not.toMatch(negativeZero);
        expect(subtractAmounts(a, a)).toBe("0.00");
      }),
    );
  });

  it("compare is a total order consistent with subtraction", () => {
    expect(compareAmounts("2", "10")).toBe(-1);
    expect(compareAmounts("-2", "-10")).toBe(1);
    expect(compareAmounts("5.00", "5")).toBe(0);
    fc.assert(
      fc.property(amount, amount, (a, b) => {
        const order = compareAmounts(a, b);
        expect(compareAmounts(b, a)).toBe(order === 0 ? 0 : -order); // avoid -0, which toBe distinguishes
        expect(compareAmounts(a, a)).toBe(0);
        const difference = subtractAmounts(a, b);
        expect(order).toBe(isZeroAmount(difference) ? 0 : isNegativeAmount(difference) ? -1 : 1);
      }),
    );
  });

  it("max and min pick the extremes", () => {
    expect(maxAmount("1.00", "-2.00")).toBe("1.00");
    expect(minAmount("1.00", "-2.00")).toBe("-2.00");
    expect(maxAmount("0", "-0.001")).toBe("0.00");
    expect(minAmount("7.5")).toBe("7.50");
    fc.assert(
      fc.property(fc.array(cents, { minLength: 1, maxLength: 20 }), (values) => {
        const sorted = [...values].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
        const [first = "0", ...rest] = values.map(centsString);
        expect(minAmount(first, ...rest)).toBe(centsString(sorted[0] ?? 0n));
        expect(maxAmount(first, ...rest)).toBe(centsString(sorted[sorted.length - 1] ?? 0n));
      }),
    );
  });

  it("throws MoneyError on a malformed amount", () => {
    expect(() => sumAmounts(["1.00", "one"])).toThrow(MoneyError);
    expect(() => compareAmounts("1", "")).toThrow(MoneyError);
  });
});

describe("formatUsd", () => {
  it.each([
    ["1234.56", "$1,234.56"],
    ["-1234.56", "-$1,234.56"],
    ["0", "$0.00"],
    ["-0.00", "$0.00"],
    ["-0.004", "$0.00"],
    ["0.5", "$0.50"],
    ["999.995", "$1,000.00"],
    ["100", "$100.00"],
    ["1234567.891", "$1,234,567.89"],
    ["-100000", "-$100,000.00"],
  ])("formatUsd(%j) = %j", (input, expected) => {
    expect(formatUsd(input)).toBe(expected);
  });

  it("has the right shape and reads back to the same amount", () => {
    fc.assert(
      fc.property(cents, (c) => {
        const text = formatUsd(centsString(c));
        expect(text).toMatch(/^-?\$(?:0|[1-9]\d{0,2}(?:,\d{3})*)\.\d{2}$/);
        expect(text.startsWith("-")).toBe(c < 0n);
        expect(toAmount(text.replace(/[$,]/g, ""))).toBe(centsString(c));
      }),
    );
  });
});

describe("isValidDecimalString", () => {
  it("checks syntax, sign and places", () => {
    expect(isValidDecimalString("12.50")).toBe(true);
    expect(isValidDecimalString("-3.00")).toBe(true);
    expect(isValidDecimalString("-3.00", { allowNegative: false })).toBe(false);
    expect(isValidDecimalString("-0.00", { allowNegative: false })).toBe(true);
    expect(isValidDecimalString("1.234", { maxPlaces: 2 })).toBe(false);
    expect(isValidDecimalString("1.230", { maxPlaces: 2 })).toBe(false);
    expect(isValidDecimalString("1.23", { maxPlaces: 2 })).toBe(true);
    expect(isValidDecimalString("7", { maxPlaces: 0 })).toBe(true);
    for (const bad of ["", "1.", ".5", "+1", "1e3", " 1", "1,000", "$1", "NaN", "--1"]) {
      expect(isValidDecimalString(bad)).toBe(false);
    }
  });

  it("agrees with the grammar on generated strings", () => {
    const grammar = /^-?\d+(?:\.\d+)?$/;
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("0", "1", "9", ".", "-", "+", "e", " ", ","), maxLength: 8 }),
        (s) => {
          expect(isValidDecimalString(s)).toBe(grammar.test(s));
        },
      ),
    );
  });
});

describe("formatRateUsd", () => {
  it("shows every place a rate has, at least two, never rounded to cents", () => {
    expect(formatRateUsd("7.499")).toBe("$7.499");
    expect(formatRateUsd("7.49900")).toBe("$7.499");
    expect(formatRateUsd("12.5")).toBe("$12.50");
    expect(formatRateUsd("0.33333")).toBe("$0.33333");
    expect(formatRateUsd("1200")).toBe("$1,200.00");
    expect(formatRateUsd("-3.1")).toBe("-$3.10");
  });
});
