// Exact decimal core for money: a value is `units / 10^scale` with bigint units, so no binary floating point
// ever touches an amount. Everything here is pure and returns new values.
import { describeInput, MoneyError } from "./money-error.js";

export type Decimal = { readonly units: bigint; readonly scale: number };

// Optional "-", digits, optional "." followed by digits. Deliberately strict: no "+", no spaces, no ".5" or
// "5.", no grouping separators, no exponents. Without the `u` flag `\d` is ASCII 0-9 only.
const DECIMAL_PATTERN = /^(-?)(\d+)(?:\.(\d+))?$/;

// Powers of ten up to the scales money actually uses are cached; rescaling runs once per value.
const POW10: readonly bigint[] = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));

function pow10(exponent: number): bigint {
  return POW10[exponent] ?? 10n ** BigInt(exponent);
}

function assertScale(scale: number): void {
  if (!Number.isSafeInteger(scale) || scale < 0) {
    throw new MoneyError(`Decimal places must be a non-negative integer, got ${describeInput(scale)}.`);
  }
}

export function isDecimalString(value: string): boolean {
  return typeof value === "string" && DECIMAL_PATTERN.test(value);
}

// Returns undefined instead of throwing so validators can branch without try/catch.
export function tryParseDecimal(value: string): Decimal | undefined {
  if (typeof value !== "string") return undefined;
  const match = DECIMAL_PATTERN.exec(value);
  if (match === null) return undefined;
  const [, sign = "", integer = "", fraction = ""] = match;
  return { units: BigInt(sign + integer + fraction), scale: fraction.length };
}

export function parseDecimal(value: string): Decimal {
  const parsed = tryParseDecimal(value);
  if (parsed === undefined) {
    throw new MoneyError(
      `Invalid decimal string ${describeInput(value)}: expected digits with an optional "-" and ".".`,
    );
  }
  return parsed;
}

// A JS number is read through its shortest round-trip decimal string, String(n): 0.1 becomes exactly 0.1,
// never 0.1000000000000000055511151231257827. Exponent forms (|n| >= 1e21 or < 1e-6) are refused rather than
// expanded, because numbers that large or small are not plausible money and are almost certainly a bug.
export function tryDecimalFromNumber(value: number): Decimal | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  return tryParseDecimal(String(value));
}

export function decimalFromNumber(value: number): Decimal {
  const parsed = tryDecimalFromNumber(value);
  if (parsed === undefined) {
    throw new MoneyError(
      `Number ${describeInput(value)} cannot be represented exactly as a plain decimal; pass a decimal string.`,
    );
  }
  return parsed;
}

// Rounding is HALF-UP in the sense of "half away from zero": 2.345 -> 2.35 and -2.345 -> -2.35. This is the
// rule customers and accountants expect on invoices (the magnitude rounds the same way whatever the sign, so
// negating before or after rounding gives the same result); it is not banker's rounding and not round-half-
// toward-positive-infinity (which would give -2.34).
export function rescaleDecimal(value: Decimal, scale: number): Decimal {
  assertScale(scale);
  if (scale === value.scale) return value;
  if (scale > value.scale) return { units: value.units * pow10(scale - value.scale), scale };
  const divisor = pow10(value.scale - scale);
  // bigint division truncates toward zero and the remainder takes the sign of the dividend.
  let quotient = value.units / divisor;
  const remainder = value.units % divisor;
  const twiceRemainder = remainder < 0n ? -remainder * 2n : remainder * 2n;
  if (twiceRemainder >= divisor) quotient += value.units < 0n ? -1n : 1n;
  return { units: quotient, scale };
}

// Drops trailing fractional zeros: 1.500 -> 1.5, 2.00 -> 2, 0.000 -> 0.
export function normalizeDecimal(value: Decimal): Decimal {
  let { units, scale } = value;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return scale === value.scale ? value : { units, scale };
}

function alignedUnits(a: Decimal, b: Decimal): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.units, b.units, a.scale];
  if (a.scale > b.scale) return [a.units, b.units * pow10(a.scale - b.scale), a.scale];
  return [a.units * pow10(b.scale - a.scale), b.units, b.scale];
}

export function addDecimals(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = alignedUnits(a, b);
  return { units: x + y, scale };
}

export function subtractDecimals(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = alignedUnits(a, b);
  return { units: x - y, scale };
}

// Exact product; callers round once, at the end, to the places they need.
export function multiplyDecimals(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

export function compareDecimals(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const [x, y] = alignedUnits(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function negateDecimal(value: Decimal): Decimal {
  return { units: -value.units, scale: value.scale };
}

export function isZeroDecimal(value: Decimal): boolean {
  return value.units === 0n;
}

export function isNegativeDecimal(value: Decimal): boolean {
  return value.units < 0n;
}

// Fixed-places string, rounding half away from zero when `places` is below the value's scale. bigint has no
// negative zero, so a value that is or rounds to zero always prints unsigned ("0.00", never "-0.00").
export function formatDecimal(value: Decimal, places: number): string {
  const { units } = rescaleDecimal(value, places);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, "0");
  const integer = digits.slice(0, digits.length - places);
  const text = places === 0 ? integer : `${integer}.${digits.slice(digits.length - places)}`;
  return negative ? `-${text}` : text;
}

// Shortest exact string: trailing fractional zeros removed ("1.50" -> "1.5", "3.000" -> "3").
export function formatDecimalNormalized(value: Decimal): string {
  const normalized = normalizeDecimal(value);
  return formatDecimal(normalized, normalized.scale);
}
