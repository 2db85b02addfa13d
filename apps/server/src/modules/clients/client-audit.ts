import type { Executor } from "../../db/database.js";
import type { clients } from "../../db/tables.js";
import { recordChange } from "../audit/record-change.js";

type ClientValues = Partial<typeof clients.$inferSelect>;

/** The gateway secret shows only that it is set or changed. */
const CLIENT_FIELDS = { mask: ["bluepaySecretKeyEncrypted"], omit: ["createdAt", "id"] } as const;

/** A client's change, in its own chain (a deleted client's last row keeps every field it had). */
export async function auditClient(
  tx: Executor,
  action: string,
  before: ClientValues | null,
  after: ClientValues | null,
  reason?: string | null,
): Promise<void> {
  const record = after ?? before;
  if (!record?.id) return;
  await recordChange(tx, {
    clientId: record.id,
    action,
    recordKind: "client",
    recordId: record.id,
    before,
    after,
    fields: CLIENT_FIELDS,
    reason,
  });
}
