import { describe, it, expect } from "vitest";
import fc from "fast-check";
import type { z } from "zod";
import { toAmount, toQuantity, toRate } from "./money.js";
import {
  amountSchema,
  MAX_DIGITS_MESSAGE,
  NEGATIVE_AMOUNT_MESSAGE,
  nonNegativeAmountSchema,
  quantitySchema,
  RATE_INVALID_MESSAGE,
  rateSchema,
  VALID_NUMBER_MESSAGE,
} from "./money-schemas.js";

function messages(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

const notANumber = ["", "abc", "1.", ".5", "+1", "1e3", "1,000.00", "$5", "1.2.3", "--1", "NaN", "Infinity"];
const wrongTypes = [null, true, {}, [], NaN, Infinity, -Infinity];

describe("missing values", () => {
  it.each([amountSchema, nonNegativeAmountSchema, quantitySchema])("say the field is required", (schema) => {
    expect(messages(schema, undefined)).toEqual(["This field is required."]);
  });
});

describe("amountSchema", () => {
  it("outputs the normalised 2-place string", () => {
    expect(amountSchema.parse("12.5")).toBe("12.50");
    expect(amountSchema.parse("-3")).toBe("-3.00");
    expect(amountSchema.parse(" 7.25 ")).toBe("7.25");
    expect(amountSchema.parse(0.1)).toBe("0.10");
    expect(amountSchema.parse("1.005")).toBe("1.01");
    expect(amountSchema.parse("-0.00")).toBe("0.00");
    expect(amountSchema.parse("999999999999.99")).toBe("999999999999.99");
    expect(amountSchema.parse("000000000000012.00")).toBe("12.00");
  });

  it.each([...notANumber, ...wrongTypes])("rejects %j as not a number", (input) => {
    expect(messages(amountSchema, input)).toEqual([VALID_NUMBER_MESSAGE]);
  });

  it.each(["1000000000000", "-1000000000000.00", "999999999999.995", 1e12])(
    "rejects %j as too long",
    (input) => {
      expect(messages(amountSchema, input)).toEqual([MAX_DIGITS_MESSAGE]);
    },
  );

  it("accepts every decimal string within 12 integer digits and agrees with toAmount", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^-?\d{1,12}(\.\d{1,4})?$/), (input) => {
        const rounded = toAmount(input);
        fc.pre(!/^-?1000000000000\./.test(rounded));
        expect(amountSchema.parse(input)).toBe(rounded);
      }),
    );
  });

  it("rejects every value with 13 or more integer digits", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^-?[1-9]\d{12,20}(\.\d{1,4})?$/), (input) => {
        expect(messages(amountSchema, input)).toEqual([MAX_DIGITS_MESSAGE]);
      }),
    );
  });
});

describe("nonNegativeAmountSchema", () => {
  it("accepts zero and positive values", () => {
    expect(nonNegativeAmountSchema.parse("0")).toBe("0.00");
    expect(nonNegativeAmountSchema.parse("-0.00")).toBe("0.00");
    expect(nonNegativeAmountSchema.parse(25)).toBe("25.00");
  });

  it.each(["-0.01", "-5", -5, "-0.001"])("rejects %j as negative", (input) => {
    expect(messages(nonNegativeAmountSchema, input)).toEqual([NEGATIVE_AMOUNT_MESSAGE]);
  });

  it("still reports malformed and oversized input", () => {
    expect(messages(nonNegativeAmountSchema, "abc")).toEqual([VALID_NUMBER_MESSAGE]);
    expect(messages(nonNegativeAmountSchema, "1000000000000")).toEqual([MAX_DIGITS_MESSAGE]);
  });

  it("rejects every negative non-zero value with the exact message", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^-\d{0,11}[1-9](\.\d{1,2})?$/), (input) => {
        expect(messages(nonNegativeAmountSchema, input)).toEqual([NEGATIVE_AMOUNT_MESSAGE]);
      }),
    );
  });
});

describe("rateSchema", () => {
  it("outputs the 5-place string", () => {
    expect(rateSchema.parse("12")).toBe("12.00000");
    expect(rateSchema.parse("0.33333")).toBe("0.33333");
    expect(rateSchema.parse("0.123456")).toBe("0.12346");
    expect(rateSchema.parse(1.5)).toBe("1.50000");
    expect(rateSchema.parse(0)).toBe("0.00000");
  });

  it.each([
    "",
    "-1",
    "-0",
    "+1",
    "1.",
    ".5",
    " 1",
    "1 ",
    "1,5",
    "1e3",
    "$1",
    "abc",
    -1,
    1e21,
    1e-7,
    NaN,
    null,
    true,
  ])("rejects %j", (input) => {
    expect(messages(rateSchema, input)).toEqual([RATE_INVALID_MESSAGE]);
  });

  it("accepts digits with an optional decimal part and rejects anything containing another character", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,8}(\.\d{1,7})?$/), (input) => {
        expect(rateSchema.parse(input)).toBe(toRate(input));
      }),
    );
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{0,4}$/),
        fc.constantFrom("-", "+", " ", ",", "e", "a", "$", "%", "/"),
        fc.stringMatching(/^\d{0,4}$/),
        (before, bad, after) => {
          expect(messages(rateSchema, `${before}${bad}${after}`)).toEqual([RATE_INVALID_MESSAGE]);
        },
      ),
    );
  });
});

describe("quantitySchema", () => {
  it("outputs the normalised string", () => {
    expect(quantitySchema.parse("1.50")).toBe("1.5");
    expect(quantitySchema.parse("3")).toBe("3");
    expect(quantitySchema.parse(2.25)).toBe("2.25");
    expect(quantitySchema.parse("0")).toBe("0");
    expect(quantitySchema.parse("0.1234567")).toBe("0.12346");
  });

  it.each([...notANumber, ...wrongTypes, "-1", -0.5])("rejects %j", (input) => {
    expect(messages(quantitySchema, input)).toEqual([VALID_NUMBER_MESSAGE]);
  });

  it("agrees with toQuantity on non-negative decimals", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,10}(\.\d{1,8})?$/), (input) => {
        expect(quantitySchema.parse(input)).toBe(toQuantity(input));
      }),
    );
  });
});
