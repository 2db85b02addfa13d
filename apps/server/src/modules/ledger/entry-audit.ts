import { sumAmounts } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { changesBetween, type AuditValues } from "../audit/audit-changes.js";
import { recordAudit, type AuditEntry } from "../audit/record-audit.js";
import type { EntryContent } from "./entry-content.js";

/** What the trail shows of an entry's content, by column name. */
export function entryAuditValues(content: EntryContent): AuditValues {
  return {
    customer_id: content.customerId,
    code_id: content.codeId,
    description: content.description,
    rate: content.rate,
    quantity: content.quantity,
    amount: content.amount,
    ledger_amount: content.ledgerAmount,
    service_date: content.serviceDate,
    unit_of_measure_id: content.unitOfMeasureId,
  };
}

/** What a new entry says beyond its content (post-entries.ts's NewLedgerEntry). */
type EntryMarks = {
  transactionType?: string;
  recurringChargeId?: number | null;
  productionRunId?: number | null;
  sourceKey?: string | null;
  gatewayTransId?: string | null;
  offsets?: { kind: "void" | "reversal"; entryId: number };
};

type Posted = { id: number; content: EntryContent; entry: EntryMarks };

/**
 * New entries in the trail: one row each, with every field after. A production run's entries are
 * one row per posting naming the run (how many, for how many customers, the total, the ids), not
 * one per entry: each entry holds its run's id in the ledger, and the run's own rows say who
 * started it; a row per entry would make the trail the run's largest cost.
 */
export async function auditPostedEntries(
  tx: Executor,
  clientId: number,
  posted: readonly Posted[],
): Promise<void> {
  const entries: AuditEntry[] = [];
  const byRun = new Map<number, Posted[]>();
  for (const item of posted) {
    const runId = item.entry.productionRunId;
    if (runId) {
      byRun.set(runId, [...(byRun.get(runId) ?? []), item]);
      continue;
    }
    const offsets = item.entry.offsets;
    entries.push({
      clientId,
      action: offsets ? `ledger_entry.${offsets.kind}` : "ledger_entry.post",
      recordKind: "ledger_entry",
      recordId: item.id,
      customerId: item.content.customerId,
      changes: changesBetween(null, {
        ...entryAuditValues(item.content),
        transaction_type: item.entry.transactionType ?? "user_or_scanner",
        ...(offsets
          ? { [offsets.kind === "void" ? "voids_entry_id" : "reverses_entry_id"]: offsets.entryId }
          : {}),
        recurring_charge_id: item.entry.recurringChargeId ?? null,
        gateway_trans_id: item.entry.gatewayTransId ?? null,
        source_key: item.entry.sourceKey ?? null,
      }),
    });
  }
  for (const [runId, items] of byRun) {
    const ids = items.map((item) => item.id);
    entries.push({
      clientId,
      action: "production_run.post_entries",
      recordKind: "production_run",
      recordId: runId,
      changes: changesBetween(null, {
        entries: items.length,
        customers: new Set(items.map((item) => item.content.customerId)).size,
        total: sumAmounts(items.map((item) => item.content.amount)),
        first_entry_id: Math.min(...ids),
        last_entry_id: Math.max(...ids),
      }),
    });
  }
  await recordAudit(tx, entries);
}

/** Entries rewritten in place (edit, mass update): each changed field before and after. */
export async function auditRewrittenEntries(
  tx: Executor,
  clientId: number,
  rewrites: readonly { id: number; before: AuditValues; after: EntryContent }[],
): Promise<void> {
  await recordAudit(
    tx,
    rewrites.map((rewrite) => ({
      clientId,
      action: "ledger_entry.update",
      recordKind: "ledger_entry",
      recordId: rewrite.id,
      customerId: rewrite.after.customerId,
      changes: changesBetween(rewrite.before, entryAuditValues(rewrite.after)),
    })),
  );
}

/**
 * Deleted entries in the trail: each stays readable, every field it had before. A production run's
 * entries taken back by its undo are one row per run, as their posting was.
 */
export async function auditRemovedEntries(
  tx: Executor,
  clientId: number,
  removed: readonly { customer_id: number; amount: string; entry: AuditValues }[],
): Promise<void> {
  const entries: AuditEntry[] = [];
  const byRun = new Map<string, typeof removed>();
  for (const row of removed) {
    const runId = row.entry.production_run_id;
    if (typeof runId === "string" && runId !== "") {
      byRun.set(runId, [...(byRun.get(runId) ?? []), row]);
      continue;
    }
    entries.push({
      clientId,
      action: "ledger_entry.delete",
      recordKind: "ledger_entry",
      recordId: String(row.entry.id),
      customerId: row.customer_id,
      changes: changesBetween(row.entry, null, { omit: ["client_id", "id", "updated_at"] }),
    });
  }
  for (const [runId, rows] of byRun) {
    const ids = rows.map((row) => Number(row.entry.id));
    entries.push({
      clientId,
      action: "production_run.remove_entries",
      recordKind: "production_run",
      recordId: runId,
      changes: changesBetween(
        {
          entries: rows.length,
          customers: new Set(rows.map((row) => row.customer_id)).size,
          total: sumAmounts(rows.map((row) => row.amount)),
          first_entry_id: Math.min(...ids),
          last_entry_id: Math.max(...ids),
        },
        null,
      ),
    });
  }
  await recordAudit(tx, entries);
}
