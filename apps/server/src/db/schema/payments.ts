import { sql } from "drizzle-orm";
import type { GatewayEvidence } from "@cyclebill/domain";
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { customers, transactions } from "./billing.js";
import {
  amountColumn,
  clientForeignKey,
  createdAtColumn,
  idColumn,
  refColumn,
  updatedAtColumn,
} from "./columns.js";
import { clients, users } from "./platform.js";

// Card and ACH payments through the gateway. Nothing here ever holds a card or account number or a
// CVV: the gateway keeps the account, we keep its TRANS_ID (the token) and the mask it answers with.

export const paymentAttemptKinds = ["sale", "auth", "refund", "void"] as const;
export const paymentAttemptSources = ["page", "staff", "bulk", "autopay"] as const;
export const paymentAttemptStatuses = [
  "pending",
  "unknown",
  "approved",
  "declined",
  "error",
  "duplicate",
  "skipped",
] as const;
export const paymentMethodKinds = ["card", "ach"] as const;
/** What became of an approved sale after the first answer (null until approved). */
export const paymentSettlementStatuses = ["pending", "settled", "returned", "charged_back"] as const;

/**
 * Every gateway call that moves money or stores a method, saved and committed before the call.
 * The id is the request's ORDER_ID, so a lost answer is settled by asking the gateway for it; the
 * idempotency key (unique per client) makes a retried request find its first attempt instead of
 * charging again.
 */
export const paymentAttempts = pgTable(
  "payment_attempts",
  {
    clientId: refColumn("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    id: idColumn(),
    customerId: refColumn("customer_id").notNull(),
    /** The statement a public payment was made from (its pay code); no key: statements may be rebuilt. */
    statementId: refColumn("statement_id"),
    idempotencyKey: varchar("idempotency_key", { length: 120 }).notNull(),
    kind: varchar("kind", { length: 8, enum: paymentAttemptKinds }).notNull(),
    source: varchar("source", { length: 8, enum: paymentAttemptSources }).notNull(),
    method: varchar("method", { length: 4, enum: paymentMethodKinds }).notNull(),
    /** Charged with the stored method (MASTER_ID) rather than an account typed in. */
    usedStoredMethod: boolean("used_stored_method").notNull().default(false),
    amount: amountColumn("amount").notNull(),
    status: varchar("status", { length: 10, enum: paymentAttemptStatuses }).notNull().default("pending"),
    /** The page's message_response (paymentPageMessage of the gateway's answer). */
    message: text("message").notNull().default(""),
    /** The gateway's TRANS_ID of this attempt ("" until answered). */
    gatewayTransId: varchar("gateway_trans_id", { length: 64 }).notNull().default(""),
    /** MASTER_ID sent: the stored method's token, or the TRANS_ID a refund/void applies to. */
    masterId: varchar("master_id", { length: 64 }).notNull().default(""),
    mask: varchar("mask", { length: 64 }).notNull().default(""),
    cardType: varchar("card_type", { length: 12 }).notNull().default(""),
    /** MMYY of a card typed in ("" for ACH and stored methods). */
    expiry: varchar("expiry", { length: 4 }).notNull().default(""),
    authCode: varchar("auth_code", { length: 16 }).notNull().default(""),
    name1: varchar("name1", { length: 80 }).notNull().default(""),
    name2: varchar("name2", { length: 80 }).notNull().default(""),
    /** Store the method (and set autopay) when approved. */
    saveMethod: boolean("save_method").notNull().default(false),
    autopay: boolean("autopay").notNull().default(false),
    /** The payment entry an approved sale posted (unique: one entry per attempt). */
    transactionId: refColumn("transaction_id"),
    /** For a refund/void: the payment entry it takes back. */
    refundsTransactionId: refColumn("refunds_transaction_id"),
    /** The card run (its job run id) a bulk or autopay attempt belongs to. */
    cardRunId: refColumn("card_run_id"),
    createdByUserId: refColumn("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** STORED_ID the gateway answered: the network transaction id of a card-on-file charge. */
    storedId: varchar("stored_id", { length: 64 }).notNull().default(""),
    /** Queries about a lost answer that told nothing definite, and when to ask again (backoff). */
    gatewayChecks: integer("gateway_checks").notNull().default(0),
    nextCheckAt: timestamp("next_check_at", { withTimezone: true }),
    /** The address the payer typed on the public page: its receipt goes there. */
    payerEmail: varchar("payer_email", { length: 254 }).notNull().default(""),
    /** The ORDER_ID sent: this installation's id and the attempt id ("" on attempts made before it). */
    orderId: varchar("order_id", { length: 80 }).notNull().default(""),
    /** An approved sale's money after the answer: pending settlement, settled, returned, charged back. */
    settlementStatus: varchar("settlement_status", { length: 12, enum: paymentSettlementStatuses }),
    /** The day the gateway reported it settled. */
    settledOn: date("settled_on", { mode: "string" }),
    /** An unknown attempt closed by a person ("it was charged" / "it was not charged"): who and why. */
    resolvedByUserId: refColumn("resolved_by_user_id").references(() => users.id, { onDelete: "set null" }),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    resolutionReason: text("resolution_reason"),
    /** ACH: the entry class sent (WEB, TEL, PPD, CCD; "" for cards), and a refund's class comes from it. */
    docType: varchar("doc_type", { length: 3 }).notNull().default(""),
    /** ACH: staff said a signed written authorization is on file for this account (PPD). */
    achSignedAgreement: boolean("ach_signed_agreement").notNull().default(false),
    /** An unknown attempt's call and lookups, with any record found (GatewayEvidence, oldest first). */
    gatewayEvidence: jsonb("gateway_evidence")
      .$type<GatewayEvidence[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Set from the app's clock when saved (the query window about a lost answer is built from it). */
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    clientForeignKey("payment_attempts_customer_id_fk", [t.clientId, t.customerId], customers).onDelete(
      "cascade",
    ),
    clientForeignKey("payment_attempts_transaction_id_fk", [t.clientId, t.transactionId], transactions),
    uniqueIndex("payment_attempts_idempotency_key").on(t.clientId, t.idempotencyKey),
    uniqueIndex("payment_attempts_transaction_key")
      .on(t.clientId, t.transactionId)
      .where(sql`transaction_id is not null`),
    index("payment_attempts_created_idx").on(t.clientId, t.createdAt, t.id),
    index("payment_attempts_customer_idx").on(t.clientId, t.customerId, t.createdAt),
    index("payment_attempts_card_run_idx")
      .on(t.clientId, t.cardRunId)
      .where(sql`card_run_id is not null`),
    index("payment_attempts_pending_idx")
      .on(t.clientId, t.id)
      .where(sql`status = 'pending'`),
    index("payment_attempts_unknown_idx")
      .on(t.clientId, t.id)
      .where(sql`status = 'unknown'`),
    index("payment_attempts_trans_idx")
      .on(t.clientId, t.gatewayTransId)
      .where(sql`gateway_trans_id <> ''`),
  ],
);

/** A customer's stored method: one per customer, the gateway's token and what it lets us show. */
export const customerPaymentMethods = pgTable(
  "customer_payment_methods",
  {
    clientId: refColumn("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    customerId: refColumn("customer_id").notNull(),
    kind: varchar("kind", { length: 4, enum: paymentMethodKinds }).notNull(),
    /** The TRANS_ID of the $0.00 AUTH (or approved sale) that stored it: the MASTER_ID of later charges. */
    token: varchar("token", { length: 64 }).notNull(),
    mask: varchar("mask", { length: 64 }).notNull().default(""),
    cardType: varchar("card_type", { length: 12 }).notNull().default(""),
    /** MMYY for cards, "" for ACH. */
    expiry: varchar("expiry", { length: 4 }).notNull().default(""),
    /** The network transaction id the first card-on-file answer gave: STORED_ID of later charges. */
    storedId: varchar("stored_id", { length: 64 }).notNull().default(""),
    attemptId: refColumn("attempt_id"),
    storedAt: createdAtColumn(),
    /** A bank account returned R02-R20/R29: never debited again until the customer gives new details. */
    doNotDebit: boolean("do_not_debit").notNull().default(false),
    doNotDebitReason: varchar("do_not_debit_reason", { length: 160 }).notNull().default(""),
    /** ACH: a signed written authorization is on file (the only case an entry goes as PPD). */
    achSignedAgreement: boolean("ach_signed_agreement").notNull().default(false),
    /** ACH: the class its authorization was given under (WEB on the page, TEL by phone, PPD, CCD). */
    achEntryClass: varchar("ach_entry_class", { length: 3 }).notNull().default(""),
    /** When the token's transaction was made: BluePay keeps its data three years from then. */
    tokenAt: timestamp("token_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.customerId] }),
    clientForeignKey(
      "customer_payment_methods_customer_id_fk",
      [t.clientId, t.customerId],
      customers,
    ).onDelete("cascade"),
    // A card run asks, per customer, whether another customer has the same card (shared-card.ts).
    index("customer_payment_methods_same_card").on(t.clientId, t.mask, t.cardType, t.expiry),
  ],
);

/** receipt: an approved payment; declined: an autopay charge refused; refund: a payment given back. */
export const paymentReceiptKinds = ["receipt", "declined", "refund"] as const;
export const paymentReceiptStatuses = ["queued", "sending", "sent", "failed"] as const;

/**
 * The email an attempt's outcome sends: a receipt for an approved payment, a notice for a declined
 * autopay charge. Queued in the transaction that records the answer, sent by the payment-receipts
 * job; one per attempt (unique), so a replayed or resumed job never sends it twice.
 */
export const paymentReceipts = pgTable(
  "payment_receipts",
  {
    clientId: refColumn("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    id: idColumn(),
    attemptId: refColumn("attempt_id").notNull(),
    customerId: refColumn("customer_id").notNull(),
    kind: varchar("kind", { length: 8, enum: paymentReceiptKinds }).notNull(),
    recipient: varchar("recipient", { length: 254 }).notNull(),
    /** The business date the answer was recorded, and the customer's balance right after it. */
    paidOn: date("paid_on", { mode: "string" }).notNull(),
    balanceAfter: amountColumn("balance_after").notNull(),
    status: varchar("status", { length: 8, enum: paymentReceiptStatuses }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    messageId: varchar("message_id", { length: 200 }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    unique("payment_receipts_attempt_key").on(t.clientId, t.attemptId),
    clientForeignKey("payment_receipts_attempt_id_fk", [t.clientId, t.attemptId], paymentAttempts).onDelete(
      "cascade",
    ),
    clientForeignKey("payment_receipts_customer_id_fk", [t.clientId, t.customerId], customers).onDelete(
      "cascade",
    ),
    index("payment_receipts_customer_idx").on(t.clientId, t.customerId, t.createdAt),
    index("payment_receipts_unsent_idx")
      .on(t.clientId, t.id)
      .where(sql`status <> 'sent'`),
  ],
);

/**
 * A staff-issued link that lets a customer store a payment method (and choose autopay) from outside
 * the office: single use, 7 days. Only the token's SHA-256 is kept.
 */
export const paymentLinks = pgTable(
  "payment_links",
  {
    clientId: refColumn("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    id: idColumn(),
    customerId: refColumn("customer_id").notNull(),
    tokenHash: varchar("token_hash", { length: 64 }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdByUserId: refColumn("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    // Unique per client (client_id leads every tenant key); the page finds a link by its token alone.
    unique("payment_links_client_token_hash_key").on(t.clientId, t.tokenHash),
    index("payment_links_token_hash_idx").on(t.tokenHash),
    clientForeignKey("payment_links_customer_id_fk", [t.clientId, t.customerId], customers).onDelete(
      "cascade",
    ),
  ],
);
