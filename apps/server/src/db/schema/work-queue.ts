import { pgTable, primaryKey, text, timestamp, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { HANDLED_BY_HAND_KINDS } from "@cyclebill/domain";
import { idColumn, refColumn } from "./columns.js";
import { clients } from "./platform.js";

/**
 * Work-queue items a person marked handled (migration 0042): a return, a declined payment or a
 * failed email followed up outside Cyclebill. Once per item; owned by modules/work-queue.
 */
export const workItemsHandled = pgTable(
  "work_items_handled",
  {
    clientId: refColumn("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    id: idColumn(),
    kind: varchar("kind", { length: 24, enum: HANDLED_BY_HAND_KINDS }).notNull(),
    key: varchar("key", { length: 100 }).notNull(),
    note: text("note").notNull().default(""),
    userId: refColumn("user_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: "work_items_handled_pkey", columns: [t.clientId, t.id] }),
    uniqueIndex("work_items_handled_item_key").on(t.clientId, t.kind, t.key),
  ],
);
