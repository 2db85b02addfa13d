import { sql } from "drizzle-orm";
import { POOL_FULFILMENTS, poolName, type PoolFulfilment } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { POOL_BUILD_JOB, STATEMENT_EMAIL_JOB, type DeliveryJob } from "./delivery-jobs.js";

export const NO_EMAIL_ADDRESS_MESSAGE = "The customer has no email address.";

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
  const [run] = await queryRows<{
    run_date: string;
    cycle: number;
    client_no: number;
    bill_fulfilment: string;
  }>(
    tx,
    sql`select r.run_date::text as run_date, r.cycle, c.client_no, c.bill_fulfilment
        from production_runs r join clients c on c.id = r.client_id
        where r.client_id = ${clientId} and r.id = ${productionRunId}`,
  );
  if (!run) throw new Error(`production run ${clientId}/${productionRunId} not found`);
  // The pool each statement of the run goes to, decided in SQL as poolFulfilmentOf decides it.
  const fulfilmentOf = sql`case when s.delivery = 'pulled' then 'pulled'
                                 when s.delivery = 'email' then null
                                 when ${run.bill_fulfilment} = 'C' then 'bulk'
                                 when ${run.bill_fulfilment} = 'A' then 'alternate'
                                 else 'mail' end`;
  const counts = await queryRows<{ fulfilment: PoolFulfilment; statements: string | number }>(
    tx,
    sql`select ${fulfilmentOf} as fulfilment, count(*) as statements
        from statements s
        where s.client_id = ${clientId} and s.production_run_id = ${productionRunId} and s.delivery <> 'email'
        group by 1`,
  );
  const jobs: DeliveryJob[] = [];
  for (const fulfilment of POOL_FULFILMENTS) {
    const count = counts.find((row) => row.fulfilment === fulfilment);
    if (!count) continue;
    const name = poolName({ runDate: run.run_date, cycle: run.cycle, clientNo: run.client_no, fulfilment });
    const [pool] = await queryRows<{ id: string | number }>(
      tx,
      sql`insert into pools (pool_name, pool_date, cycle, client_id, production_run_id, fulfilment, statements_count)
          values (${name}, ${run.run_date}::date, ${run.cycle}, ${clientId}, ${productionRunId}, ${fulfilment},
                  ${Number(count.statements)})
          on conflict do nothing
          returning id`,
    );
    if (!pool) continue;
    const poolId = Number(pool.id);
    await tx.execute(
      sql`update statements s set pool_id = ${poolId}
          where s.client_id = ${clientId} and s.production_run_id = ${productionRunId}
            and ${fulfilmentOf} = ${fulfilment}`,
    );
    jobs.push({ name: POOL_BUILD_JOB, payload: { poolId } });
  }
  const emails = await queryRows<{ id: string | number }>(
    tx,
    sql`insert into statement_deliveries (client_id, statement_id, production_run_id, channel, recipient, status,
                                          last_error)
        select s.client_id, s.id, s.production_run_id, 'email', c.email,
               case when c.email = '' then 'failed' else 'queued' end,
               case when c.email = '' then ${NO_EMAIL_ADDRESS_MESSAGE} end
        from statements s
        join customers c on c.client_id = s.client_id and c.id = s.customer_id
        where s.client_id = ${clientId} and s.production_run_id = ${productionRunId}
          and s.delivery in ('email', 'both')
        on conflict do nothing
        returning id`,
  );
  if (emails.length > 0) jobs.push({ name: STATEMENT_EMAIL_JOB, payload: { clientId, productionRunId } });
  return jobs;
}
