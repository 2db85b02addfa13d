import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";

// The delivery module owns pools and statement deliveries: a run's undo withdraws them here.

const poolRowSchema = z.object({ pool_name: z.string(), state: z.string() });
const idRowSchema = z.object({ id: dbInt });

/**
 * Withdraws a run part's statement emails and pools (the caller checked none has gone out).
 * Answers how many emails, and the pools with their state: a pool still building removes its own
 * files when its next write finds it gone; the caller removes the others' files after it commits.
 */
export async function withdrawRunDelivery(
  tx: Executor,
  part: { clientId: number; productionRunId: number },
): Promise<{ emails: number; pools: { pool_name: string; state: string }[] }> {
  const { clientId, productionRunId } = part;
  const emails = await queryRows(
    tx,
    sql`delete from statement_deliveries where client_id = ${clientId} and production_run_id = ${productionRunId}
        returning id`,
    idRowSchema,
  );
  const pools = await queryRows(
    tx,
    sql`delete from pools where client_id = ${clientId} and production_run_id = ${productionRunId}
        returning pool_name, state`,
    poolRowSchema,
  );
  return { emails: emails.length, pools };
}
