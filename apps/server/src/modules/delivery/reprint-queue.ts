import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";

// The queue of statements waiting for the client's next print pool (statement_resends with channel
// "pool" and no pool yet; statement-resends.ts queues them). The pool made next takes them.

const idRowSchema = z.object({ id: dbInt });

/** How many reprints of the client wait for its next pool. */
export async function queuedReprints(tx: Executor, clientId: number): Promise<number> {
  const rows = await queryRows(
    tx,
    sql`select id from statement_resends where client_id = ${clientId} and channel = 'pool' and pool_id is null
        for update`,
    idRowSchema,
  );
  return rows.length;
}

/** The client's waiting reprints go into this pool (in the transaction that made it). */
export async function takeQueuedReprints(tx: Executor, clientId: number, poolId: number): Promise<number> {
  const rows = await queryRows(
    tx,
    sql`update statement_resends set pool_id = ${poolId}, status = 'sent', sent_at = now()
        where client_id = ${clientId} and channel = 'pool' and pool_id is null
        returning id`,
    idRowSchema,
  );
  return rows.length;
}
