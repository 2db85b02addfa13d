import { eq, sql } from "drizzle-orm";
import { currentClock } from "../../clock.js";
import type { Executor } from "../../db/database.js";
import { auditEvents, auditHeads, type AuditChange } from "../../db/tables.js";
import { auditRowHash, GENESIS_HASH, type ChainedRow } from "./audit-chain.js";
import { currentAuditActor } from "./audit-context.js";

/** The provider's own chain: admins, registrations, anything of no client. */
export const PROVIDER_CHAIN = 0;

const INSERT_SLICE = 2_000;

/** One change to record: what, and for which client and customer; the actor comes from the context. */
export type AuditEntry = {
  clientId: number | null;
  action: string;
  recordKind: string;
  recordId: string | number;
  customerId?: number | null;
  changes: AuditChange[];
  reason?: string | null;
};

/**
 * Appends entries to their clients' chains, in the caller's transaction, so a change and its
 * record commit together or not at all. Each chain's head is locked to the end of the transaction
 * (chains in client order, so two writers never wait on each other in a circle); call this last in
 * a transaction that locks other rows, so the head is held only while it commits.
 */
export async function recordAudit(tx: Executor, entries: AuditEntry | readonly AuditEntry[]): Promise<void> {
  const list = Array.isArray(entries) ? (entries as readonly AuditEntry[]) : [entries as AuditEntry];
  if (list.length === 0) return;
  const actor = currentAuditActor();
  const at = currentClock().now();
  const byClient = new Map<number, AuditEntry[]>();
  for (const entry of list) {
    const chain = entry.clientId ?? PROVIDER_CHAIN;
    byClient.set(chain, [...(byClient.get(chain) ?? []), entry]);
  }
  for (const clientId of [...byClient.keys()].sort((a, b) => a - b)) {
    await tx
      .insert(auditHeads)
      .values({ clientId, seq: 0, hash: GENESIS_HASH })
      .onConflictDoNothing({ target: auditHeads.clientId });
    const [head] = await tx.select().from(auditHeads).where(eq(auditHeads.clientId, clientId)).for("update");
    let seq = head?.seq ?? 0;
    let prevHash = head?.hash ?? GENESIS_HASH;
    const rows: (ChainedRow & { hash: string })[] = [];
    for (const entry of byClient.get(clientId) ?? []) {
      seq += 1;
      const row: ChainedRow = {
        clientId,
        seq,
        at,
        actorKind: actor.kind,
        actorUserId: actor.userId,
        actorLabel: actor.label.slice(0, 254),
        address: actor.address?.slice(0, 64) ?? null,
        userAgent: actor.userAgent,
        action: entry.action,
        recordKind: entry.recordKind,
        recordId: String(entry.recordId),
        customerId: entry.customerId ?? null,
        changes: entry.changes,
        reason: entry.reason ?? null,
        prevHash,
      };
      prevHash = auditRowHash(row);
      rows.push({ ...row, hash: prevHash });
    }
    // In slices: a statement takes at most 65,535 parameters (16 a row).
    for (let start = 0; start < rows.length; start += INSERT_SLICE)
      await tx.insert(auditEvents).values(rows.slice(start, start + INSERT_SLICE));
    await tx
      .update(auditHeads)
      .set({ seq, hash: prevHash })
      .where(sql`${auditHeads.clientId} = ${clientId}`);
  }
}
