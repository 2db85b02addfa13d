import { AsyncLocalStorage } from "node:async_hooks";
import { eq } from "drizzle-orm";
import { currentClock } from "../../clock.js";
import type { Database, Executor } from "../../db/database-types.js";
import { auditEvents, auditHeads, type AuditChange } from "../../db/tables.js";
import { auditRowHash, GENESIS_HASH, type ChainedRow } from "./audit-chain.js";
import { currentAuditActor, type AuditActor } from "./audit-context.js";

/** The provider's own chain: admins, registrations, anything of no client. */
export const PROVIDER_CHAIN = 0;

/** Rows a statement inserts: a statement takes at most 65,535 parameters (16 a row). */
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

type Pending = { entry: AuditEntry; actor: AuditActor; at: Date };

/** The open transaction's entries, written when its work is done (bufferAuditInTransactions). */
const pendingStorage = new AsyncLocalStorage<Pending[]>();

/**
 * Records changes in the trail, as part of the caller's transaction: they commit with the change
 * or not at all. Inside a transaction the entries wait for its end (see bufferAuditInTransactions),
 * so a chain's head is locked only while the transaction commits; outside one they are written at
 * once in a transaction of their own.
 */
export async function recordAudit(db: Executor, entries: AuditEntry | readonly AuditEntry[]): Promise<void> {
  const list: readonly AuditEntry[] = Array.isArray(entries) ? entries : [entries as AuditEntry];
  if (list.length === 0) return;
  const actor = currentAuditActor();
  const at = currentClock().now();
  const pending = list.map((entry) => ({ entry, actor, at }));
  const open = pendingStorage.getStore();
  if (open) {
    open.push(...pending);
    return;
  }
  await db.transaction((tx) => writeAudit(tx, pending));
}

/**
 * Makes every transaction of this handle write the audit entries recorded during its work just
 * before it commits. Set up once where the database opens. A savepoint's entries go with its
 * transaction's (a savepoint rolled back while its transaction commits is the one case that would
 * keep them; no writer catches one).
 */
export function bufferAuditInTransactions(db: Database): void {
  const original = db.transaction.bind(db);
  const buffered: Database["transaction"] = (work, config) =>
    original(async (tx) => {
      const pending: Pending[] = [];
      const result = await pendingStorage.run(pending, () => work(tx));
      if (pending.length > 0) await writeAudit(tx, pending);
      return result;
    }, config);
  Object.assign(db, { transaction: buffered });
}

/**
 * Appends the entries to their clients' chains. Each chain's head is locked to the end of the
 * transaction (chains in client order, so two writers never wait on each other in a circle).
 */
async function writeAudit(tx: Executor, pending: readonly Pending[]): Promise<void> {
  const byClient = new Map<number, Pending[]>();
  for (const item of pending) {
    const chain = item.entry.clientId ?? PROVIDER_CHAIN;
    byClient.set(chain, [...(byClient.get(chain) ?? []), item]);
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
    for (const { entry, actor, at } of byClient.get(clientId) ?? []) {
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
        reason: entry.reason ?? actor.reason ?? null,
        prevHash,
      };
      prevHash = auditRowHash(row);
      rows.push({ ...row, hash: prevHash });
    }
    for (let start = 0; start < rows.length; start += INSERT_SLICE)
      await tx.insert(auditEvents).values(rows.slice(start, start + INSERT_SLICE));
    await tx.update(auditHeads).set({ seq, hash: prevHash }).where(eq(auditHeads.clientId, clientId));
  }
}
