import { sql } from "drizzle-orm";
import {
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { amountColumn, createdAtColumn, idColumn, refColumn, updatedAtColumn } from "./columns.js";
import { clients, users } from "./platform.js";

// What the gateway tells us after its first answer: settlements, ACH returns, chargebacks and
// their reversals, notifications of change, and each day's reconciliation of the gateway's record
// against the ledger. Rows come from the daily reports, Trans Notify posts (confirmed by a
// lookup) or a person; the unique key makes reading the same report twice do nothing twice.

export const gatewayEventKinds = [
  "settled",
  "returned",
  "charged_back",
  "chargeback_reversed",
  "noc",
  "re_presented",
] as const;
export const gatewayEventSources = ["report", "notify", "manual"] as const;
export const gatewayNoticeStatuses = ["queued", "sending", "sent", "failed"] as const;

export const gatewayEvents = pgTable(
  "gateway_events",
  {
    clientId: refColumn("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    id: idColumn(),
    kind: varchar("kind", { length: 20, enum: gatewayEventKinds }).notNull(),
    /** The event's own record at the gateway (a REJECT's TRANS_ID; for "settled", the sale's). */
    gatewayTransId: varchar("gateway_trans_id", { length: 64 }).notNull(),
    /** The TRANS_ID of our sale the event is about (its MASTER_ID at the gateway). */
    originalTransId: varchar("original_trans_id", { length: 64 }).notNull(),
    /** The payment attempt and customer it belongs to; null when nothing of ours matched. */
    attemptId: refColumn("attempt_id"),
    customerId: refColumn("customer_id"),
    /** R01…R85 for returns, C01…C07 for a NOC, the card network's reason code for a chargeback. */
    code: varchar("code", { length: 8 }).notNull().default(""),
    reason: text("reason").notNull().default(""),
    amount: amountColumn("amount").notNull().default("0"),
    /** The business date the gateway dated the event. */
    eventDate: date("event_date", { mode: "string" }).notNull(),
    source: varchar("source", { length: 8, enum: gatewayEventSources }).notNull(),
    /** NOC: the corrected data, masked as the gateway gives it. */
    correctedData: varchar("corrected_data", { length: 120 }).notNull().default(""),
    /** The ledger entry the event posted (the reversal, or the payment posted back), and a return fee. */
    transactionId: refColumn("transaction_id"),
    feeTransactionId: refColumn("fee_transaction_id"),
    createdByUserId: refColumn("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAtColumn(),
    /** The customer's email about a return or chargeback: queued with the event, sent by a job. */
    noticeStatus: varchar("notice_status", { length: 8, enum: gatewayNoticeStatuses }),
    noticeRecipient: varchar("notice_recipient", { length: 254 }).notNull().default(""),
    noticeAttempts: integer("notice_attempts").notNull().default(0),
    noticeError: text("notice_error"),
    noticeUpdatedAt: timestamp("notice_updated_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    index("gateway_events_notice_idx")
      .on(t.clientId, t.id)
      .where(sql`notice_status in ('queued', 'sending', 'failed')`),
    index("gateway_events_represent_idx")
      .on(t.clientId, t.id)
      .where(sql`kind = 're_presented' and attempt_id is null`),
    uniqueIndex("gateway_events_event_key").on(t.clientId, t.kind, t.gatewayTransId),
    index("gateway_events_date_idx").on(t.clientId, t.eventDate, t.id),
    index("gateway_events_attempt_idx")
      .on(t.clientId, t.attemptId)
      .where(sql`attempt_id is not null`),
    index("gateway_events_customer_idx")
      .on(t.clientId, t.customerId, t.eventDate)
      .where(sql`customer_id is not null`),
  ],
);

export const gatewayReconciliationStatuses = ["running", "done", "failed"] as const;

/** One client's day: what the gateway settled against what the ledger holds, and each difference. */
export const gatewayReconciliations = pgTable(
  "gateway_reconciliations",
  {
    clientId: refColumn("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    id: idColumn(),
    day: date("day", { mode: "string" }).notNull(),
    status: varchar("status", { length: 8, enum: gatewayReconciliationStatuses })
      .notNull()
      .default("running"),
    jobRunId: refColumn("job_run_id"),
    gatewayCount: integer("gateway_count").notNull().default(0),
    gatewayTotal: amountColumn("gateway_total").notNull().default("0"),
    ledgerCount: integer("ledger_count").notNull().default(0),
    ledgerTotal: amountColumn("ledger_total").notNull().default("0"),
    /** [{kind, trans_id, order_id, attempt_id, customer_id, gateway_amount, ledger_amount, detail}] */
    differences: jsonb("differences")
      .notNull()
      .default(sql`'[]'::jsonb`),
    error: text("error"),
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    createdByUserId: refColumn("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    uniqueIndex("gateway_reconciliations_day_key").on(t.clientId, t.day),
  ],
);
