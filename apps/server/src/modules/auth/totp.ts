import { createHash, randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { RECOVERY_CODE_COUNT } from "@cyclebill/domain";

const ISSUER = "Cyclebill";
const PERIOD_SECONDS = 30;

/** A fresh TOTP secret (160 bits, base32, as authenticator apps take it). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpFor(secret: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/**
 * The time step a code belongs to, within one step either side of now, or null. Real time, not
 * the app's (injectable) clock: the code comes from the user's phone, which keeps real time.
 */
export function matchingTotpStep(secret: string, code: string, now = Date.now()): number | null {
  const delta = totpFor(secret, "").validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

// No 0/o, 1/l/i: codes get copied by hand.
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** Ten one-use recovery codes such as "k3f9q-x7m2p" (about 49 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
    return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
  });
}

/** As stored: SHA-256 of the code without case, spaces or dashes (random codes need no slow hash). */
export function recoveryCodeHash(code: string): string {
  const normalized = code.toLowerCase().replace(/[\s-]/g, "");
  return createHash("sha256").update(normalized).digest("hex");
}
