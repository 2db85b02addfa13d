import { randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

// This installation's id, generated once beside the secrets key and kept in the data directory: it
// prefixes every ORDER_ID sent to the gateway, so two installations (or a restored copy) sharing one
// BluePay account never send, or look up, the same order id. BILLING_INSTALLATION_ID overrides it
// (a restored database must get a new one; several processes of one installation share one).

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const LENGTH = 10;
const VALID = /^[a-z2-7]{6,16}$/;

/** A new id: 10 base32 characters (50 bits). */
export function newInstallationId(): string {
  const bytes = randomBytes(LENGTH);
  return Array.from(bytes, (byte) => ALPHABET[byte % 32]).join("");
}

/** The configured id, checked: 6-16 lower-case base32 characters, so ORDER_ID stays short and plain. */
export function checkedInstallationId(value: string): string {
  const id = value.trim().toLowerCase();
  if (!VALID.test(id))
    throw new Error("BILLING_INSTALLATION_ID must be 6 to 16 characters of a-z and 2-7 (base32).");
  return id;
}

/**
 * The id kept in DATA_DIR/installation-id, written the first time. Several processes may start on
 * one data directory at once: the file appears whole (written aside, then linked), and the first
 * link wins; the others read it.
 */
export function readOrCreateInstallationId(dataDir: string): string {
  const file = path.join(dataDir, "installation-id");
  if (existsSync(file)) return checkedInstallationId(readFileSync(file, "utf8"));
  mkdirSync(dataDir, { recursive: true });
  const draft = `${file}.${process.pid}.${newInstallationId()}`;
  writeFileSync(draft, newInstallationId(), { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  return checkedInstallationId(readFileSync(file, "utf8"));
}

/** The ORDER_ID of an attempt: the installation's id and the attempt's. */
export function orderIdOf(installationId: string, attemptId: number): string {
  return `${installationId}-${attemptId}`;
}
