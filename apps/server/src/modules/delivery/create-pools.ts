import { sql } from "drizzle-orm";
import { POOL_FULFILMENTS, poolFulfilmentOf, poolName } from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { assignStatementsToPool } from "../statements/statement-marks.js";
import { POOL_BUILD_JOB, STATEMENT_EMAIL_JOB, type DeliveryJob } from "./delivery-jobs.js";
import { queuedReprints, takeQueuedReprints } from "./reprint-queue.js";

export const NO_EMAIL_ADDRESS_MESSAGE = "The customer has no email address.";

const runRowSchema = z.object({ run_date: dbText, cycle: dbInt, client_no: dbInt, bill_fulfilment: dbText });
/** A run's statements by how they go out (a run writes the decision's deliveries, never "bulk"). */
const deliveryCountRowSchema = z.object({
  delivery: z.enum(["mail", "email", "both", "pulled"]),
  statements: dbInt,
});
const idRowSchema = z.object({ id: dbInt });

/**
 * Once a client's part of a run has made its statements (in the transaction of its last step):
 * one print pool per fulfilment that has statements, each statement put in its pool, one queued
 * email per statement that goes by email, and the jobs that build the pools and send the emails.
 * Unique keys (pool per run and fulfilment, email per statement) make a replay add nothing.
 */
export async function createRunDeliveries(
  tx: Executor,
  input: { clientId: number; productionRunId: number },
): Promise<DeliveryJob[]> {
  const { clientId, productionRunId } = input;
  const [run] = await queryRows(
    tx,
    sql`select r.run_date::text as run_date, r.cycle, c.client_no, c.bill_fulfilment
        from production_runs r join clients c on c.id = r.client_id
        where r.client_id = ${clientId} and r.id = ${productionRunId}`,
    runRowSchema,
  );
  if (!run) throw new Error(`production run ${clientId}/${productionRunId} not found`);
  // The run's statements by how they go out; the domain's rule says which pool each goes to.
  const deliveries = await queryRows(
    tx,
    sql`select delivery, count(*) as statements from statements
        where client_id = ${clientId} and production_run_id = ${productionRunId} and version = 1
        group by delivery`,
    deliveryCountRowSchema,
  );
  // Statements queued for the client's next pool (reprints, issue 41) go where its mail goes.
  const reprints = await queuedReprints(tx, clientId);
  const reprintsTo = poolFulfilmentOf("mail", run.bill_fulfilment);
  const jobs: DeliveryJob[] = [];
  for (const fulfilment of POOL_FULFILMENTS) {
    const members = deliveries.filter(
      (row) => poolFulfilmentOf(row.delivery, run.bill_fulfilment) === fulfilment,
    );
    const extra = fulfilment === reprintsTo ? reprints : 0;
    if (members.length === 0 && extra === 0) continue;
    const statements = members.reduce((sum, row) => sum + row.statements, 0) + extra;
    const name = poolName({ runDate: run.run_date, cycle: run.cycle, clientNo: run.client_no, fulfilment });
    const [pool] = await queryRows(
      tx,
      sql`insert into pools (pool_name, pool_date, cycle, client_id, production_run_id, fulfilment, statements_count)
          values (${name}, ${run.run_date}::date, ${run.cycle}, ${clientId}, ${productionRunId}, ${fulfilment},
                  ${statements})
          on conflict do nothing
          returning id`,
      idRowSchema,
    );
    if (!pool) continue;
    const poolId = pool.id;
    await assignStatementsToPool(
      tx,
      clientId,
      productionRunId,
      members.map((row) => row.delivery),
      poolId,
    );
    if (extra > 0) await takeQueuedReprints(tx, clientId, poolId);
    jobs.push({ name: POOL_BUILD_JOB, payload: { poolId } });
  }
  const emails = await queryRows(
    tx,
    sql`insert into statement_deliveries (client_id, statement_id, production_run_id, channel, recipient, status,
                                          last_error)
        select s.client_id, s.id, s.production_run_id, 'email', c.email,
               case when c.email = '' then 'failed' else 'queued' end,
               case when c.email = '' then ${NO_EMAIL_ADDRESS_MESSAGE} end
        from statements s
        join customers c on c.client_id = s.client_id and c.id = s.customer_id
        where s.client_id = ${clientId} and s.production_run_id = ${productionRunId} and s.version = 1
          and s.delivery in ('email', 'both')
        on conflict do nothing
        returning id`,
    idRowSchema,
  );
  if (emails.length > 0) jobs.push({ name: STATEMENT_EMAIL_JOB, payload: { clientId, productionRunId } });
  return jobs;
}
