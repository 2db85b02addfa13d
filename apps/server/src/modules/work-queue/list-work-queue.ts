import { sql } from "drizzle-orm";
import {
  WORK_ITEM_KINDS,
  handledByHand,
  resolvePaging,
  type Page,
  type ScheduledCycle,
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
import { listScheduledCycles } from "../production/scheduled-runs.js";
import { unprovenItems } from "./unproven-statements.js";
import { WORK_ITEM_QUERIES, type WorkItemRow, type WorkQueueScope } from "./work-queue.queries.js";

/** The kinds a client's owner works on; the provider's admins also run cycles and print pools. */
const OWNER_KINDS: readonly WorkItemKind[] = [
  "statement_undeliverable",
  "email_failed",
  "payment_unknown",
  "payment_declined",
  "payment_returned",
  "statement_unproven",
];

const countSchema = z.object({ total: dbInt });

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
    case "statement_undeliverable":
      return { label: "Fix the customers' addresses", to: "/customers" };
    case "statement_unproven":
      return { label: "Reissue corrected", to: "/invoicesAndStatements" };
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

const STATE_WORDS: Record<ScheduledCycle["state"], string> = {
  due: "due",
  waiting_approval: "waiting for approval",
  running: "running",
  done: "done",
  failed: "failed",
  held: "held: every client of the cycle is held out",
};

/**
 * Today's scheduled cycles that still need a person or are under way (a done one needs nothing),
 * and every scheduled run waiting for approval: the provider's items, for admins.
 */
async function scheduledItems(db: Database): Promise<WorkItem[]> {
  const { results } = await listScheduledCycles(db);
  return results
    .filter((cycle) => cycle.state !== "done")
    .map((cycle): WorkItem => {
      const waiting = cycle.state === "waiting_approval";
      const held = cycle.held.map((client) => `${client.client_name} held (${client.reason})`);
      return {
        kind: waiting ? "run_waiting_approval" : "cycle_due",
        key: `${String(cycle.cycle)}-${cycle.run_date}`,
        client_id: null,
        client_name: "",
        title: `Cycle ${String(cycle.cycle)}${cycle.run_time ? ` at ${cycle.run_time}` : ""}`,
        detail: [
          `Scheduled run ${STATE_WORDS[cycle.state]}`,
          ...(cycle.error ? [cycle.error] : []),
          ...held,
        ].join("; "),
        amount: null,
        since: cycle.run_date,
        action: waiting
          ? { label: "Review and approve", to: "/AdminProcessingView" }
          : { label: "Open Admin Processing", to: "/AdminProcessingView" },
        handled_by_hand: false,
      };
    });
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
  // The provider's scheduled cycles and the statements to correct lead (their kinds come first),
  // then the records' items, paged in the database.
  const lead = [
    ...(role === "admin" ? await scheduledItems(db) : []),
    ...(kinds.includes("statement_unproven") ? await unprovenItems(db, scope.clientId) : []),
  ].filter((item) => kinds.includes(item.kind));
  const { limit, offset } = resolvePaging(query);
  const leadPage = lead.slice(offset, offset + limit);
  const selects = kinds.flatMap((kind) => {
    const select = WORK_ITEM_QUERIES[kind];
    return select ? [sql`(${select(scope)})`] : [];
  });
  if (selects.length === 0) return { count: lead.length, results: leadPage };
  const items = sql`(${sql.join(selects, sql` union all `)}) items`;
  const order = sql.raw(
    `case kind ${kinds.map((kind, index) => `when '${kind}' then ${index}`).join(" ")} end`,
  );
  const [total] = await queryRows(db, sql`select count(*) as total from ${items}`, countSchema);
  const rows =
    limit - leadPage.length > 0
      ? await queryRows(
          db,
          sql`select * from ${items} order by ${order}, since, client_id, key
              limit ${limit - leadPage.length} offset ${Math.max(0, offset - lead.length)}`,
          rowSchema,
        )
      : [];
  return {
    count: lead.length + (total?.total ?? 0),
    results: [...leadPage, ...rows.map((row) => toItem(row))],
  };
}
