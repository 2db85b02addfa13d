import { hash, verify } from "@node-rs/argon2";

// argon2id (algorithm 2) with the library's defaults (19 MiB, 2 passes), OWASP's minimum.
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
