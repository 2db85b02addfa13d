import { sql } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { sqlArray } from "../ledger/sql-arrays.js";

// The statements module owns the statements table: delivery, the card run and the run's undo
// change what a statement records through these.

/** Pages each statement drew. `keepFirst`: an emailed copy keeps the page count a pool drew first. */
export async function setStatementPages(
  tx: Executor,
  clientId: number,
  drawn: readonly { statementId: number; pages: number }[],
  keepFirst = false,
): Promise<void> {
  if (drawn.length === 0) return;
  const pages = keepFirst ? sql`coalesce(s.pages, p.pages)` : sql`p.pages`;
  await tx.execute(
    sql`update statements s set pages = ${pages}
        from unnest(${sqlArray(
          drawn.map((row) => row.statementId),
          "bigint",
        )}, ${sqlArray(
          drawn.map((row) => row.pages),
          "int",
        )}) as p(id, pages)
        where s.client_id = ${clientId} and s.id = p.id`,
  );
}

/** A run part's statements of these deliveries go into the pool. */
export async function assignStatementsToPool(
  tx: Executor,
  clientId: number,
  productionRunId: number,
  deliveries: readonly string[],
  poolId: number,
): Promise<void> {
  await tx.execute(
    sql`update statements set pool_id = ${poolId}
        where client_id = ${clientId} and production_run_id = ${productionRunId} and version = 1
          and delivery = any(${sqlArray([...deliveries], "text")})`,
  );
}

/** Each statement keeps what its autopay notice announced (method and date): its pay page shows it as it was. */
export async function recordAutopayAnnounced(
  tx: Executor,
  clientId: number,
  chargeDate: string,
  announced: readonly { statementId: number; method: string }[],
): Promise<void> {
  if (announced.length === 0) return;
  await tx.execute(
    sql`update statements s set autopay_method = v.method, autopay_charge_date = ${chargeDate}::date
        from unnest(${sqlArray(
          announced.map((row) => row.statementId),
          "bigint",
        )}, ${sqlArray(
          announced.map((row) => row.method),
          "text",
        )}) as v(id, method)
        where s.client_id = ${clientId} and s.id = v.id`,
  );
}

/** A run's undo withdraws its statements (their entries and invoices were released first). */
export async function deleteStatements(
  tx: Executor,
  clientId: number,
  statementIds: readonly number[],
): Promise<void> {
  if (statementIds.length === 0) return;
  await tx.execute(
    sql`delete from statements where client_id = ${clientId} and id = any(${sqlArray([...statementIds], "bigint")})`,
  );
}
