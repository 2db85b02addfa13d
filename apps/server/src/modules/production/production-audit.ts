import type { Executor } from "../../db/database.js";
import { changesBetween, type AuditValues } from "../audit/audit-changes.js";
import { recordAudit } from "../audit/record-audit.js";

/**
 * A client's part of a production run in the trail: started, retried, undo asked for, undone.
 * Its postings are recorded as they post (one row per posting, ledger/entry-audit.ts).
 */
export async function auditProductionRun(
  tx: Executor,
  action: "start" | "retry" | "undo_requested" | "undo",
  run: { clientId: number; id: number },
  after: AuditValues = {},
  reason?: string | null,
): Promise<void> {
  await recordAudit(tx, {
    clientId: run.clientId,
    action: `production_run.${action}`,
    recordKind: "production_run",
    recordId: run.id,
    changes: changesBetween(null, after),
    reason: reason?.trim() || null,
  });
}
