import { sql } from "drizzle-orm";
import {
  WORK_ITEM_KINDS,
  handledByHand,
  resolvePaging,
  type Page,
  type WorkItem,
  type WorkItemKind,
  type WorkQueueQuery,
} from "@cyclebill/domain";
import { z } from "zod";
import { businessToday, currentClock } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { roleOf, type AuthUser } from "../../http/auth-context.js";
import { forbidden } from "../../http/errors.js";
import { WORK_ITEM_QUERIES, type WorkItemRow, type WorkQueueScope } from "./work-queue.queries.js";

/** The kinds a client's owner works on; the provider's admins also run cycles and print pools. */
const OWNER_KINDS: readonly WorkItemKind[] = [
  "email_failed",
  "payment_unknown",
  "payment_declined",
  "payment_returned",
  "statement_unproven",
];

const rowSchema = z.object({
  kind: z.enum(WORK_ITEM_KINDS),
  key: dbText,
  client_id: dbInt,
  client_name: dbText,
  customer_id: dbInt.nullable(),
  label: dbText,
  detail: dbText,
  amount: dbDecimal.nullable(),
  since: dbText,
});

/** The screen that resolves an item (the web adds the item's client) and its button's words. */
function actionOf(row: WorkItemRow): WorkItem["action"] {
  const customer = row.customer_id === null ? null : `/customers/edit/${row.customer_id}`;
  switch (row.kind) {
    case "cycle_due":
    case "run_waiting_approval":
    case "run_failed":
      return { label: "Open Admin Processing", to: "/AdminProcessingView" };
    case "pool_not_downloaded":
      return { label: "Download for print", to: "/AdminProcessingView" };
    case "payment_unknown":
      return { label: "Check at the gateway", to: "/customers/processCC" };
    case "statement_unproven":
      return { label: "Reissue", to: "/invoicesAndStatements" };
    case "email_failed":
    case "payment_declined":
    case "payment_returned":
      return { label: "Open the customer", to: customer ?? "/home" };
  }
}

function toItem(row: WorkItemRow): WorkItem {
  return {
    kind: row.kind,
    key: row.key,
    client_id: row.client_id,
    client_name: row.client_name,
    title: row.label,
    detail: row.detail,
    amount: row.amount,
    since: row.since.includes("T") ? new Date(row.since).toISOString() : row.since,
    action: actionOf(row),
    handled_by_hand: handledByHand(row.kind),
  };
}

/**
 * GET /api/work-queue/: what needs a person, oldest first within each kind, kinds in the queue's
 * order. Admins see every client's (or the chosen client's); an owner their own client's part;
 * staff have no queue.
 */
export async function listWorkQueue(
  db: Database,
  user: AuthUser,
  query: WorkQueueQuery,
): Promise<Page<WorkItem>> {
  const role = roleOf(user);
  if (role === "staff" || (role === "owner" && user.clientId === null)) throw forbidden();
  const scope: WorkQueueScope = {
    clientId: role === "admin" ? (query.client_id ?? null) : user.clientId,
    today: businessToday(),
    now: currentClock().now(),
  };
  const kinds = WORK_ITEM_KINDS.filter(
    (kind) => (role === "admin" || OWNER_KINDS.includes(kind)) && (!query.kind || query.kind === kind),
  );
  const selects = kinds.flatMap((kind) => {
    const select = WORK_ITEM_QUERIES[kind];
    return select ? [sql`(${select(scope)})`] : [];
  });
  if (selects.length === 0) return { count: 0, results: [] };
  const { limit, offset } = resolvePaging(query);
  const order = sql.raw(
    `case kind ${kinds.map((kind, index) => `when '${kind}' then ${index}`).join(" ")} end`,
  );
  const rows = await queryRows(
    db,
    sql`select *, count(*) over () as total from (${sql.join(selects, sql` union all `)}) items
        order by ${order}, since, client_id, key limit ${limit} offset ${offset}`,
    rowSchema.extend({ total: dbInt }),
  );
  return { count: rows[0]?.total ?? 0, results: rows.map((row) => toItem(row)) };
}
