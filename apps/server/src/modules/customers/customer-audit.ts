import type { Executor } from "../../db/database.js";
import type { customers } from "../../db/tables.js";
import { recordChange } from "../audit/record-change.js";

type CustomerValues = Partial<typeof customers.$inferSelect>;

/** search_text is derived from the other fields; the balances move with postings (recorded as entries). */
const CUSTOMER_FIELDS = { omit: ["createdAt", "clientId", "id", "searchText"] } as const;

/** A customer's change in its client's trail, each changed field before and after. */
export async function auditCustomer(
  tx: Executor,
  action: string,
  before: CustomerValues | null,
  after: CustomerValues | null,
): Promise<void> {
  const record = after ?? before;
  if (!record?.id || record.clientId === undefined) return;
  await recordChange(tx, {
    clientId: record.clientId,
    action,
    recordKind: "customer",
    recordId: record.id,
    customerId: record.id,
    before,
    after,
    fields: CUSTOMER_FIELDS,
  });
}
