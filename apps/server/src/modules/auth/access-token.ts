import { randomUUID } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import type { AccessTokenClaims } from "../../db/auth-cache.js";

const ISSUER = "cyclebill";
export const ACCESS_TOKEN_LIFETIME_SECONDS = 12 * 60 * 60;
export const REMEMBERED_TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function signAccessToken(
  secret: string,
  userId: number,
  lifetimeSeconds = ACCESS_TOKEN_LIFETIME_SECONDS,
): Promise<string> {
  return (await signAccessTokenWithClaims(secret, userId, lifetimeSeconds)).token;
}

/** A signed token and what it says: a session is opened under its id (start-session.ts). */
export async function signAccessTokenWithClaims(
  secret: string,
  userId: number,
  lifetimeSeconds = ACCESS_TOKEN_LIFETIME_SECONDS,
): Promise<{ token: string; claims: AccessTokenClaims }> {
  const issuedAtMs = Date.now();
  const tokenId = randomUUID();
  const expiresAtSeconds = Math.floor(issuedAtMs / 1000) + lifetimeSeconds;
  // iat has whole seconds; a millisecond stamp lets a password change end sessions of that same second.
  const token = await new SignJWT({ iat_ms: issuedAtMs })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(ISSUER)
    .setSubject(String(userId))
    .setJti(tokenId)
    .setIssuedAt(Math.floor(issuedAtMs / 1000))
    .setExpirationTime(expiresAtSeconds)
    .sign(key(secret));
  return {
    token,
    claims: { userId, tokenId, issuedAt: new Date(issuedAtMs), expiresAt: new Date(expiresAtSeconds * 1000) },
  };
}

/** Returns the claims of a valid token, or null for anything forged, expired or malformed. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessTokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { issuer: ISSUER, algorithms: ["HS256"] });
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || !payload.jti || !payload.exp || !payload.iat) return null;
    return {
      userId,
      tokenId: payload.jti,
      issuedAt: new Date(typeof payload.iat_ms === "number" ? payload.iat_ms : payload.iat * 1000),
      expiresAt: new Date(payload.exp * 1000),
    };
  } catch {
    return null;
  }
}
