import { sql } from "drizzle-orm";
import {
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  varchar,
} from "drizzle-orm/pg-core";
import { customers } from "./billing.js";
import { clientForeignKey, createdAtColumn, idColumn, refColumn, updatedAtColumn } from "./columns.js";
import { clients } from "./platform.js";

export const expiringCardNoticeStatuses = ["queued", "sending", "sent", "failed"] as const;

/**
 * The email telling a customer that the card on file expires before its next charge: one per card
 * (the unique key: customer, mask, card type, expiry), queued by the daily expiring-cards job and
 * sent by it; a replayed or resumed job never sends it twice.
 */
export const expiringCardNotices = pgTable(
  "expiring_card_notices",
  {
    clientId: refColumn("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    id: idColumn(),
    customerId: refColumn("customer_id").notNull(),
    mask: varchar("mask", { length: 64 }).notNull(),
    cardType: varchar("card_type", { length: 12 }).notNull(),
    /** MMYY, as stored with the method. */
    expiry: varchar("expiry", { length: 4 }).notNull(),
    recipient: varchar("recipient", { length: 254 }).notNull(),
    /** The charge the card will not be good for. */
    nextChargeOn: date("next_charge_on", { mode: "string" }).notNull(),
    status: varchar("status", { length: 8, enum: expiringCardNoticeStatuses }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    unique("expiring_card_notices_card_key").on(t.clientId, t.customerId, t.mask, t.cardType, t.expiry),
    clientForeignKey("expiring_card_notices_customer_id_fk", [t.clientId, t.customerId], customers).onDelete(
      "cascade",
    ),
    index("expiring_card_notices_unsent_idx")
      .on(t.clientId, t.id)
      .where(sql`status <> 'sent'`),
  ],
);
