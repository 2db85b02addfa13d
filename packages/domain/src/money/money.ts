// Public money API shared by server and web. Values travel as decimal strings ("12.50", "-3.00"); inside, every
// operation works on bigint scaled integers from decimal.ts. Rounding is always half away from zero.
import {
  decimalFromNumber,
  formatDecimal,
  formatDecimalNormalized,
  multiplyDecimals,
  negateDecimal,
  normalizeDecimal,
  parseDecimal,
  rescaleDecimal,
  tryParseDecimal,
  type Decimal,
} from "./decimal.js";
import { describeInput, MoneyError } from "./money-error.js";

export { MoneyError } from "./money-error.js";

export const AMOUNT_PLACES = 2;
export const RATE_PLACES = 5;
export const QUANTITY_PLACES = 5;

export type DecimalStringOptions = { allowNegative?: boolean; maxPlaces?: number };

function readDecimal(value: string | number): Decimal {
  if (typeof value === "number") return decimalFromNumber(value);
  if (typeof value === "string") return parseDecimal(value);
  throw new MoneyError(`Expected a decimal string or number, got ${describeInput(value)}.`);
}

// Every amount argument is read the way toAmount reads it (rounded half-up to cents), so the amount
// functions are plain integer arithmetic on cents and stay associative even for sloppy input like "1.005".
function readCents(value: string): bigint {
  return rescaleDecimal(parseDecimal(value), AMOUNT_PLACES).units;
}

function formatCents(cents: bigint): string {
  return formatDecimal({ units: cents, scale: AMOUNT_PLACES }, AMOUNT_PLACES);
}

export function roundHalfUp(value: string, places: number): string {
  return formatDecimal(parseDecimal(value), places);
}

export function toAmount(value: string | number): string {
  return formatDecimal(readDecimal(value), AMOUNT_PLACES);
}

export function toRate(value: string | number): string {
  return formatDecimal(readDecimal(value), RATE_PLACES);
}

// Quantities are shown as typed ("1.5" hours, "3" seats), so they are normalised rather than padded.
export function toQuantity(value: string | number): string {
  return formatDecimalNormalized(rescaleDecimal(readDecimal(value), QUANTITY_PLACES));
}

// Rounds the exact product once; rounding the rate first would turn 0.33333 x 3 into 0.33 x 3 = 0.99.
export function multiplyRateByQuantity(rate: string, quantity: string): string {
  return formatDecimal(multiplyDecimals(parseDecimal(rate), parseDecimal(quantity)), AMOUNT_PLACES);
}

// `percent` is a percentage ("1.5" means 1.5%); dividing by 100 is exact as two extra decimal places.
export function percentOf(amount: string, percent: string): string {
  const p = parseDecimal(percent);
  const product = { units: readCents(amount) * p.units, scale: AMOUNT_PLACES + p.scale + 2 };
  return formatDecimal(product, AMOUNT_PLACES);
}

export function sumAmounts(amounts: readonly string[]): string {
  let total = 0n;
  for (const amount of amounts) total += readCents(amount);
  return formatCents(total);
}

export function addAmounts(a: string, b: string): string {
  return formatCents(readCents(a) + readCents(b));
}

export function subtractAmounts(a: string, b: string): string {
  return formatCents(readCents(a) - readCents(b));
}

export function negateAmount(amount: string): string {
  return formatCents(-readCents(amount));
}

export function compareAmounts(a: string, b: string): -1 | 0 | 1 {
  const x = readCents(a);
  const y = readCents(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function isZeroAmount(amount: string): boolean {
  return readCents(amount) === 0n;
}

export function isNegativeAmount(amount: string): boolean {
  return readCents(amount) < 0n;
}

export function maxAmount(first: string, ...rest: string[]): string {
  let best = readCents(first);
  for (const amount of rest) {
    const cents = readCents(amount);
    if (cents > best) best = cents;
  }
  return formatCents(best);
}

export function minAmount(first: string, ...rest: string[]): string {
  let best = readCents(first);
  for (const amount of rest) {
    const cents = readCents(amount);
    if (cents < best) best = cents;
  }
  return formatCents(best);
}

// "$1,234.56", "-$1,234.56", "$0.00". The sign goes before the currency symbol, as US invoices print it.
export function formatUsd(amount: string): string {
  const cents = readCents(amount);
  const text = formatCents(cents < 0n ? -cents : cents);
  const point = text.length - AMOUNT_PLACES - 1;
  const grouped = text.slice(0, point).replace(/\B(?=(\d{3})+$)/g, ",");
  return `${cents < 0n ? "-" : ""}$${grouped}${text.slice(point)}`;
}

// A rate as the screens and the PDFs both show it: every place it has (up to 5), at least 2:
// "$7.499", "$12.50", "$0.33333", "$1,200.00". Rates are not rounded to cents, so 7.499 never shows as $7.50.
export function formatRateUsd(rate: string): string {
  const value = normalizeDecimal(rescaleDecimal(parseDecimal(rate), RATE_PLACES));
  const text = formatDecimal(
    value.units < 0n ? negateDecimal(value) : value,
    Math.max(value.scale, AMOUNT_PLACES),
  );
  const [whole = "0", fraction = ""] = text.split(".");
  return `${value.units < 0n ? "-" : ""}$${whole.replace(/\B(?=(\d{3})+$)/g, ",")}.${fraction}`;
}

// Syntax check for API and form input. allowNegative (default true) judges the value, so "-0.00" counts as
// zero; maxPlaces limits the digits written after the point, trailing zeros included.
export function isValidDecimalString(s: string, options: DecimalStringOptions = {}): boolean {
  const parsed = tryParseDecimal(s);
  if (parsed === undefined) return false;
  if (options.allowNegative === false && parsed.units < 0n) return false;
  if (options.maxPlaces !== undefined && parsed.scale > options.maxPlaces) return false;
  return true;
}

/**
 * A 2-place amount string ("-12.30") as whole cents (-1230), exactly: the one money parser for code
 * that sums many amounts as integers (the client book, the doctor). Throws on anything else.
 */
export function amountToCents(amount: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
  if (!match) throw new MoneyError(`Not an amount: ${describeInput(amount)}.`);
  const cents = Number(match[2]) * 100 + Number(`${match[3] ?? ""}00`.slice(0, 2));
  return match[1] === "-" ? -cents : cents;
}
