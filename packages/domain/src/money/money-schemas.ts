import { REQUIRED_MESSAGE } from "../api/drf-messages.js";
import { onTheWire } from "../api/wire-schema.js";
// zod schemas for money in API input. Each accepts a decimal string or a finite JS number and outputs the
// normalised decimal string the rest of the app stores and computes with. Messages are user-facing and are
// exported so the server and web can match on them in tests.
import { z } from "zod";
import {
  formatDecimal,
  formatDecimalNormalized,
  rescaleDecimal,
  tryDecimalFromNumber,
  tryParseDecimal,
  type Decimal,
} from "./decimal.js";
import { AMOUNT_PLACES, QUANTITY_PLACES, RATE_PLACES } from "./money.js";

export const VALID_NUMBER_MESSAGE = "A valid number is required.";
export const MAX_DIGITS_MESSAGE = "Ensure that there are no more than 12 digits before the decimal point.";
export const NEGATIVE_AMOUNT_MESSAGE =
  "Transaction amounts must always be a positive number. Please correct the amount to save transaction.";
export const RATE_INVALID_MESSAGE =
  "The rate contains invalid characters. Please use only digits and decimals.";

// Amounts are stored as NUMERIC(14, 2): 12 integer digits plus cents.
export const MAX_AMOUNT_INTEGER_DIGITS = 12;

const MAX_AMOUNT_CENTS = 10n ** BigInt(MAX_AMOUNT_INTEGER_DIGITS + AMOUNT_PLACES);

// Unsigned digits with an optional fractional part; the rate schema allows nothing else, not even "-0".
const UNSIGNED_DECIMAL_PATTERN = /^\d+(?:\.\d+)?$/;

// Surrounding whitespace is ignored, as DRF's DecimalField and integerParam do for form and query input.
function readInput(value: string | number): Decimal | undefined {
  return typeof value === "number" ? tryDecimalFromNumber(value) : tryParseDecimal(value.trim());
}

// A missing value reads "This field is required." as in DRF; a value of the wrong type gets the given message.
const decimalInput = (message: string) =>
  z.union([z.string(), z.number()], {
    error: (issue) => (issue.input === undefined ? REQUIRED_MESSAGE : message),
  });

function amountSchemaWith(allowNegative: boolean) {
  return decimalInput(VALID_NUMBER_MESSAGE).transform((value, ctx) => {
    const parsed = readInput(value);
    if (parsed === undefined) {
      ctx.addIssue({ code: "custom", message: VALID_NUMBER_MESSAGE });
      return z.NEVER;
    }
    // Judged before rounding: "-0.001" is a negative entry even though it rounds to "0.00".
    if (!allowNegative && parsed.units < 0n) {
      ctx.addIssue({ code: "custom", message: NEGATIVE_AMOUNT_MESSAGE });
      return z.NEVER;
    }
    // Judged after rounding, so "999999999999.995" (which rounds up to 13 digits) is rejected too.
    const cents = rescaleDecimal(parsed, AMOUNT_PLACES);
    if ((cents.units < 0n ? -cents.units : cents.units) >= MAX_AMOUNT_CENTS) {
      ctx.addIssue({ code: "custom", message: MAX_DIGITS_MESSAGE });
      return z.NEVER;
    }
    return formatDecimal(cents, AMOUNT_PLACES);
  });
}

// More than two decimals are rounded half away from zero, as toAmount does.
// Documented as decimal strings (a JSON number is read too): at most 12 digits before the point, and
// the places the value keeps (more are rounded, but a client need not send them).
export const amountSchema = onTheWire(amountSchemaWith(true), {
  type: "string",
  format: "decimal",
  pattern: "^-?\\d{1,12}(\\.\\d{1,2})?$",
  description: "decimal string, 2 places",
});

export const nonNegativeAmountSchema = onTheWire(amountSchemaWith(false), {
  type: "string",
  format: "decimal",
  pattern: "^\\d{1,12}(\\.\\d{1,2})?$",
  description: "decimal string, 2 places, not negative",
});

const rateInput = decimalInput(RATE_INVALID_MESSAGE).transform((value, ctx) => {
  // No trimming here: a space is one of the "invalid characters" the message talks about. String(n) makes the
  // number check identical to the string one and rejects NaN, negatives and exponent forms.
  const text = typeof value === "number" ? String(value) : value;
  const parsed = UNSIGNED_DECIMAL_PATTERN.test(text) ? tryParseDecimal(text) : undefined;
  if (parsed === undefined) {
    ctx.addIssue({ code: "custom", message: RATE_INVALID_MESSAGE });
    return z.NEVER;
  }
  return formatDecimal(parsed, RATE_PLACES);
});
// NUMERIC(16, 5): 11 digits before the point.
export const rateSchema = onTheWire(rateInput, {
  type: "string",
  format: "decimal",
  pattern: "^\\d{1,11}(\\.\\d{1,5})?$",
  description: "decimal string, up to 5 places, not negative",
});

const quantityInput = decimalInput(VALID_NUMBER_MESSAGE).transform((value, ctx) => {
  const parsed = readInput(value);
  if (parsed === undefined || parsed.units < 0n) {
    ctx.addIssue({ code: "custom", message: VALID_NUMBER_MESSAGE });
    return z.NEVER;
  }
  return formatDecimalNormalized(rescaleDecimal(parsed, QUANTITY_PLACES));
});
// NUMERIC(14, 5): 9 digits before the point.
export const quantitySchema = onTheWire(quantityInput, {
  type: "string",
  format: "decimal",
  pattern: "^\\d{1,9}(\\.\\d{1,5})?$",
  description: "decimal string, up to 5 places, not negative",
});
