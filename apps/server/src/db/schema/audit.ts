import {
  bigint,
  char,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  varchar,
} from "drizzle-orm/pg-core";
import { idColumn, refColumn } from "./columns.js";
import { users } from "./platform.js";

export const auditActorKinds = ["user", "job", "cli", "payer", "system"] as const;
export type AuditActorKind = (typeof auditActorKinds)[number];

/** One change: [field, before, after], each value a string or null (masked where it must be). */
export type AuditChange = [field: string, before: string | null, after: string | null];

/**
 * The audit trail (migration 0033): append-only, chained per client (client 0 is the provider's own
 * records); only the audit module writes it.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    clientId: refColumn("client_id").notNull(),
    seq: bigint("seq", { mode: "number" }).notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    actorKind: varchar("actor_kind", { length: 8, enum: auditActorKinds }).notNull(),
    actorUserId: refColumn("actor_user_id"),
    actorLabel: varchar("actor_label", { length: 254 }).notNull(),
    address: varchar("address", { length: 64 }),
    userAgent: varchar("user_agent", { length: 512 }),
    action: varchar("action", { length: 64 }).notNull(),
    recordKind: varchar("record_kind", { length: 32 }).notNull(),
    recordId: varchar("record_id", { length: 64 }).notNull(),
    customerId: refColumn("customer_id"),
    changes: jsonb("changes").$type<AuditChange[]>().notNull().default([]),
    reason: text("reason"),
    prevHash: char("prev_hash", { length: 64 }).notNull(),
    hash: char("hash", { length: 64 }).notNull(),
  },
  (t) => [
    primaryKey({ name: "audit_events_pkey", columns: [t.clientId, t.seq] }),
    index("audit_events_record_idx").on(t.clientId, t.recordKind, t.recordId, t.seq),
    index("audit_events_at_idx").on(t.at),
    index("audit_events_actor_idx").on(t.actorUserId, t.at),
  ],
);

/** Each chain's last link: its seq and hash (the doctor checks it against the rows). */
export const auditHeads = pgTable("audit_heads", {
  clientId: refColumn("client_id").primaryKey(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: char("hash", { length: 64 }).notNull(),
});

/**
 * A reviewer looked at the access review (migration 0037): who, when, the note and how many users it
 * listed. Client 0 is a provider-wide review (as the trail's provider chain). Owned by modules/access-review.
 */
export const accessReviews = pgTable(
  "access_reviews",
  {
    clientId: refColumn("client_id").notNull(),
    id: idColumn(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }).notNull(),
    reviewDate: date("review_date").notNull(),
    reviewerUserId: refColumn("reviewer_user_id").references(() => users.id, { onDelete: "set null" }),
    reviewerLabel: varchar("reviewer_label", { length: 254 }).notNull(),
    note: text("note").notNull(),
    usersCount: integer("users_count").notNull(),
    activeUsersCount: integer("active_users_count").notNull(),
  },
  (t) => [
    primaryKey({ name: "access_reviews_pkey", columns: [t.clientId, t.id] }),
    index("access_reviews_client_idx").on(t.clientId, t.reviewedAt),
  ],
);
