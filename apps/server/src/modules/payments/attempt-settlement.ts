import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { paymentAttempts, type paymentSettlementStatuses } from "../../db/tables.js";

// The payments module owns payment attempts: the gateway's later news (settlement, a return, a
// chargeback and its reversal, applied by gateway-events) is recorded on the attempt through this.

export type SettlementStatus = (typeof paymentSettlementStatuses)[number];

/**
 * Records what the gateway reported of the attempt. `settledOn` with "settled": the report's date;
 * a late settlement report never undoes a return or chargeback already known (only a pending
 * attempt becomes settled then).
 */
export async function recordSettlement(
  tx: Executor,
  attempt: { clientId: number; id: number },
  status: SettlementStatus,
  settledOn?: string,
): Promise<void> {
  await tx
    .update(paymentAttempts)
    .set({
      settlementStatus: status,
      ...(settledOn === undefined ? {} : { settledOn }),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(paymentAttempts.clientId, attempt.clientId),
        eq(paymentAttempts.id, attempt.id),
        settledOn === undefined
          ? undefined
          : sql`coalesce(${paymentAttempts.settlementStatus}, 'pending') = 'pending'`,
      ),
    );
}
