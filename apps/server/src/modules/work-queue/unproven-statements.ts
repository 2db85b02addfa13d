import { sql } from "drizzle-orm";
import { usDate, type WorkItem } from "@cyclebill/domain";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { statementMismatches } from "../ledger/statement-mismatches.js";

const reopenedSchema = z.object({ client_id: dbInt, client_name: dbText });
const customerSchema = z.object({ id: dbInt, name: dbText, customer_no: dbInt });

/**
 * Statements that no longer prove themselves, for the work queue: only a reopened period lets an
 * entry change under a sent statement, so the doctor's check runs for the clients whose books were
 * ever reopened (one client, or every such client), not for the whole bureau on each Home.
 */
export async function unprovenItems(db: Database, clientId: number | null): Promise<WorkItem[]> {
  const reopened = await queryRows(
    db,
    sql`select c.id as client_id, c.client_name from clients c
        where exists (select 1 from closed_period_events e where e.client_id = c.id and e.action = 'reopen')
          ${clientId === null ? sql`` : sql`and c.id = ${clientId}`}
        order by c.id`,
    reopenedSchema,
  );
  const items: WorkItem[] = [];
  for (const client of reopened) {
    const failing = await statementMismatches(db, { clientId: client.client_id });
    if (failing.length === 0) continue;
    const ids = [...new Set(failing.map((row) => row.customerId))];
    const names = new Map(
      (
        await queryRows(
          db,
          sql`select id, coalesce(nullif(customer_name, ''), trim(first_name || ' ' || last_name)) as name, customer_no
              from customers where client_id = ${client.client_id} and id = any(${`{${ids.join(",")}}`}::bigint[])`,
          customerSchema,
        )
      ).map((row) => [row.id, `${row.name} (${String(row.customer_no)})`]),
    );
    for (const row of failing)
      items.push({
        kind: "statement_unproven",
        key: String(row.statementId),
        client_id: client.client_id,
        client_name: client.client_name,
        title: `Statement ${String(row.statementNum)} of ${usDate(row.statementDate)} · ${names.get(row.customerId) ?? ""}`,
        detail: row.reasons.join("; "),
        amount: null,
        since: row.statementDate,
        action: {
          label: "Reissue corrected",
          to: `/invoicesAndStatements?customer_id=${String(row.customerId)}`,
        },
        handled_by_hand: false,
      });
  }
  return items;
}
