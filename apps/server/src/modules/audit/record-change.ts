import type { Executor } from "../../db/database-types.js";
import { changesBetween, type AuditValues } from "./audit-changes.js";
import { recordAudit } from "./record-audit.js";

/** One record's change: its values before (null: created) and after (null: deleted). */
export type RecordChange = {
  clientId: number | null;
  action: string;
  recordKind: string;
  recordId: string | number;
  customerId?: number | null;
  before: AuditValues | null;
  after: AuditValues | null;
  fields?: { omit?: readonly string[]; mask?: readonly string[] };
  reason?: string | null;
};

/** Records a record's change in the trail, each changed field before and after. */
export async function recordChange(tx: Executor, change: RecordChange): Promise<void> {
  await recordAudit(tx, {
    clientId: change.clientId,
    action: change.action,
    recordKind: change.recordKind,
    recordId: change.recordId,
    customerId: change.customerId ?? null,
    changes: changesBetween(change.before, change.after, change.fields),
    reason: change.reason ?? null,
  });
}
