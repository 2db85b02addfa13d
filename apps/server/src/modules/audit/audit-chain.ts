import { createHash } from "node:crypto";
import type { AuditActorKind, AuditChange } from "../../db/schema/audit.js";

/** The first row of a chain follows this. */
export const GENESIS_HASH = "0".repeat(64);

/** A trail row as its hash covers it: every column but the hash itself. */
export type ChainedRow = {
  clientId: number;
  seq: number;
  at: Date;
  actorKind: AuditActorKind;
  actorUserId: number | null;
  actorLabel: string;
  address: string | null;
  userAgent: string | null;
  action: string;
  recordKind: string;
  recordId: string;
  customerId: number | null;
  changes: AuditChange[];
  reason: string | null;
  prevHash: string;
};

/**
 * SHA-256 of the row's columns in a fixed order, as JSON. An array, not an object: jsonb may
 * reorder an object's keys, never an array's, so the row read back hashes the same.
 */
export function auditRowHash(row: ChainedRow): string {
  const content = JSON.stringify([
    row.clientId,
    row.seq,
    row.at.toISOString(),
    row.actorKind,
    row.actorUserId,
    row.actorLabel,
    row.address,
    row.userAgent,
    row.action,
    row.recordKind,
    row.recordId,
    row.customerId,
    row.changes,
    row.reason,
    row.prevHash,
  ]);
  return createHash("sha256").update(content).digest("hex");
}
