import { sql, type SQL } from "drizzle-orm";
import {
  achReturnText,
  gatewayEventSchema,
  nocText,
  resolvePaging,
  type GatewayEventRecord,
  type GatewayEventsQuery,
  type Page,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import type { TenantContext } from "../../http/auth-context.js";

/** An event as the list's query returns it: the API's event, with its ledger entry's description for its own. */
const eventRowSchema = gatewayEventSchema.omit({ description: true }).extend({
  id: dbInt,
  client_id: dbInt,
  attempt_id: dbInt.nullable(),
  customer_id: dbInt.nullable(),
  customer_no: dbInt.nullable(),
  entry_description: dbText.nullable(),
  amount: dbDecimal,
  event_date: dbDate,
  transaction_id: dbInt.nullable(),
  fee_transaction_id: dbInt.nullable(),
});
type EventRow = z.output<typeof eventRowSchema>;

const countRowSchema = z.object({ count: dbInt });

function describe(row: EventRow): string {
  if (row.entry_description) return row.entry_description;
  if (row.kind === "returned") return achReturnText(row.code, row.reason);
  if (row.kind === "noc") return nocText(row.code);
  if (row.kind === "settled") return "Settled";
  return [row.kind === "re_presented" ? "Presented again" : "Chargeback", row.code, row.reason]
    .filter(Boolean)
    .join(" ");
}

function toApi(row: EventRow): GatewayEventRecord {
  return {
    id: row.id,
    client_id: row.client_id,
    kind: row.kind,
    gateway_trans_id: row.gateway_trans_id,
    original_trans_id: row.original_trans_id,
    attempt_id: row.attempt_id,
    customer_id: row.customer_id,
    customer_no: row.customer_no,
    customer_name: row.customer_name,
    code: row.code,
    reason: row.reason,
    description: describe(row),
    amount: row.amount,
    event_date: row.event_date,
    source: row.source,
    corrected_data: row.corrected_data,
    transaction_id: row.transaction_id,
    fee_transaction_id: row.fee_transaction_id,
    notice_status: row.notice_status,
    created: row.created,
  };
}

/** GET /api/gateway/events/: the client's gateway events, newest first, by kind, customer or day. */
export async function listGatewayEvents(
  db: Executor,
  tenant: TenantContext,
  query: GatewayEventsQuery,
): Promise<Page<GatewayEventRecord>> {
  const filters: SQL[] = [sql`e.client_id = ${tenant.clientId}`];
  if (query.kind !== undefined) filters.push(sql`e.kind = ${query.kind}`);
  if (query.customer_id !== undefined) filters.push(sql`e.customer_id = ${query.customer_id}`);
  if (query.date !== undefined) filters.push(sql`e.event_date = ${query.date}`);
  const where = sql.join(filters, sql` and `);
  const { limit, offset } = resolvePaging(query);
  const [rows, [total]] = await Promise.all([
    queryRows(
      db,
      sql`select e.id, e.client_id, e.kind, e.gateway_trans_id, e.original_trans_id, e.attempt_id, e.customer_id,
                 c.customer_no, c.customer_name, e.code, e.reason, t.description as entry_description,
                 e.amount::text as amount, e.event_date::text as event_date, e.source, e.corrected_data,
                 e.transaction_id, e.fee_transaction_id, e.notice_status,
                 to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created
          from gateway_events e
          left join customers c on c.client_id = e.client_id and c.id = e.customer_id
          left join transactions t on t.client_id = e.client_id and t.id = e.transaction_id
          where ${where} order by e.event_date desc, e.id desc limit ${limit} offset ${offset}`,
      eventRowSchema,
    ),
    queryRows(db, sql`select count(*) as count from gateway_events e where ${where}`, countRowSchema),
  ]);
  return { count: total?.count ?? 0, results: rows.map(toApi) };
}
