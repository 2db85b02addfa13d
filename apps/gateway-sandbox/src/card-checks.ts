import { createHmac } from "node:crypto";

// What the sandbox checks about a payment account and an amount, and how it remembers an account
// without keeping it: a mask to show and a keyed fingerprint to compare (duplicate scrubbing).
// Card numbers and CVVs are never stored, not even in memory past the request.

export type CardType = "VISA" | "MC" | "AMEX" | "DISC" | "UNKN";

/** The Luhn check every card number passes (4111111111111111 does; 4111111111111112 does not). */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function isCardNumber(text: string): boolean {
  return /^\d{12,19}$/.test(text) && luhnValid(text);
}

/** The card brand from its leading digits, as CARD_TYPE names it. */
export function cardTypeOf(number: string): CardType {
  if (number.startsWith("4")) return "VISA";
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return "MC";
  if (two === 34 || two === 37) return "AMEX";
  const three = Number(number.slice(0, 3));
  if (number.startsWith("6011") || two === 65 || (three >= 644 && three <= 649)) return "DISC";
  return "UNKN";
}

/** "xxxxxxxxxxxx1111": the last four kept, the way PAYMENT_ACCOUNT_MASK shows a card. */
export function maskDigits(digits: string): string {
  return "x".repeat(Math.max(0, digits.length - 4)) + digits.slice(-4);
}

export type AchAccount = { accountType: "C" | "S"; routing: string; account: string };

/** ABA routing numbers carry a check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function routingValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  const weighted = (at: number, weight: number) =>
    weight * ((d[at] ?? 0) + (d[at + 3] ?? 0) + (d[at + 6] ?? 0));
  return (weighted(0, 3) + weighted(1, 7) + weighted(2, 1)) % 10 === 0;
}

/** PAYMENT_ACCOUNT for ACH: "C:routing:account" (checking) or "S:routing:account" (savings). */
export function parseAchAccount(text: string): AchAccount | null {
  const match = /^([CS]):(\d{9}):(\d{4,17})$/.exec(text);
  if (!match) return null;
  const [, accountType, routing = "", account = ""] = match;
  if (!routingValid(routing)) return null;
  return { accountType: accountType === "S" ? "S" : "C", routing, account };
}

/** The routing number identifies a bank, not a person, so it stays; the account is masked. */
export function maskAch(ach: AchAccount): string {
  return `${ach.accountType}:${ach.routing}:${maskDigits(ach.account)}`;
}

export type ExpiryCheck = "ok" | "invalid" | "expired";

/** CARD_EXPIRE is MMYY; a card is good through the last day of its month (UTC). */
export function checkExpiry(mmyy: string, now: Date): ExpiryCheck {
  const match = /^(\d{2})(\d{2})$/.exec(mmyy);
  if (!match) return "invalid";
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  if (month < 1 || month > 12) return "invalid";
  const firstDayAfter = Date.UTC(year, month, 1);
  return now.getTime() < firstDayAfter ? "ok" : "expired";
}

/**
 * A keyed fingerprint: equal accounts give equal fingerprints under one key, and without the key
 * (random per sandbox run, never written) the few billion card numbers cannot be tried one by one.
 */
export function fingerprintOf(key: Buffer, account: string): string {
  return createHmac("sha256", key).update(account).digest("hex");
}

/** AMOUNT as BluePay takes it, dollars with up to two decimals ("12.50", "3"): cents, or null. */
export function parseAmountCents(text: string): bigint | null {
  const match = /^(\d{1,9})(?:\.(\d{0,2}))?$/.exec(text.trim());
  if (!match) return null;
  const [, dollars = "0", fraction = ""] = match;
  return BigInt(dollars) * 100n + BigInt(fraction.padEnd(2, "0"));
}

export function formatCents(cents: bigint): string {
  const whole = cents / 100n;
  const rest = (cents % 100n).toString().padStart(2, "0");
  return `${whole}.${rest}`;
}

/** BluePay's test mode: an odd dollar amount (cents ignored) approves, an even one declines. */
export function testModeApproves(cents: bigint): boolean {
  return (cents / 100n) % 2n === 1n;
}
