import { and, asc, eq, gt } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { auditEvents, auditHeads } from "../../db/tables.js";
import { auditRowHash, GENESIS_HASH } from "./audit-chain.js";

export type AuditVerification = {
  chains: number;
  rows: number;
  /** One sentence per break found; empty when every chain holds. */
  mismatches: string[];
  /** Each chain's last link, to keep outside the database and compare on the next check. */
  heads: { clientId: number; seq: number; hash: string }[];
};

const BATCH = 5_000;

function chainName(clientId: number): string {
  return clientId === 0 ? "the provider's chain" : `client ${String(clientId)}'s chain`;
}

/**
 * Recomputes every chain (or one client's) from its first row: each row's hash must match its
 * content, each row must name the previous row's hash, seqs must run without a gap, and the head
 * must be the last row. A changed row breaks its own hash; a removed one leaves a gap or a head
 * past the end.
 */
export async function verifyAuditTrail(db: Executor, clientId?: number): Promise<AuditVerification> {
  const heads = await db
    .select()
    .from(auditHeads)
    .where(clientId === undefined ? undefined : eq(auditHeads.clientId, clientId))
    .orderBy(asc(auditHeads.clientId));
  const result: AuditVerification = { chains: heads.length, rows: 0, mismatches: [], heads: [] };
  for (const head of heads) {
    const name = chainName(head.clientId);
    let expectedSeq = 1;
    let prevHash = GENESIS_HASH;
    for (;;) {
      const rows = await db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.clientId, head.clientId), gt(auditEvents.seq, expectedSeq - 1)))
        .orderBy(asc(auditEvents.seq))
        .limit(BATCH);
      for (const row of rows) {
        if (row.seq !== expectedSeq)
          result.mismatches.push(
            `${name}: row${row.seq - expectedSeq > 1 ? "s" : ""} ${String(expectedSeq)}${
              row.seq - expectedSeq > 1 ? `–${String(row.seq - 1)}` : ""
            } missing (removed)`,
          );
        if (row.prevHash !== prevHash)
          result.mismatches.push(`${name}: row ${String(row.seq)} does not follow the row before it`);
        const { hash, ...content } = row;
        if (auditRowHash(content) !== hash)
          result.mismatches.push(`${name}: row ${String(row.seq)} was changed after it was written`);
        prevHash = hash;
        expectedSeq = row.seq + 1;
        result.rows += 1;
      }
      if (rows.length < BATCH) break;
    }
    const lastSeq = expectedSeq - 1;
    if (lastSeq !== head.seq || prevHash !== head.hash)
      result.mismatches.push(
        `${name}: ends at row ${String(lastSeq)} but its head says row ${String(head.seq)} (rows removed from its end, or the head changed)`,
      );
    result.heads.push({ clientId: head.clientId, seq: head.seq, hash: head.hash });
  }
  return result;
}
