import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import {
  amountColumn,
  clientForeignKey,
  createdAtColumn,
  idColumn,
  quantityColumn,
  rateColumn,
  refColumn,
  updatedAtColumn,
} from "./columns.js";
import { clients, pools, productionRuns, unitsOfMeasure, users } from "./platform.js";

// Tenant-owned tables. client_id leads every primary, unique and foreign key so the
// schema can be distributed by tenant (Citus) without rewriting keys.

const clientIdColumn = () =>
  refColumn("client_id")
    .notNull()
    .references(() => clients.id, { onDelete: "cascade" });

export const codeTypes = [
  "info",
  "charge",
  "payment",
  "adjust",
  "debit",
  "percent_discount",
  "flat_discount",
] as const;

export const codes = pgTable(
  "codes",
  {
    clientId: clientIdColumn(),
    id: idColumn(),
    /** Negative numbers are system codes (late fees, voids, ...), not editable. */
    code: integer("code").notNull(),
    codeName: varchar("code_name", { length: 60 }).notNull().default(""),
    description: varchar("description", { length: 60 }).notNull().default(""),
    codeType: varchar("code_type", { length: 20, enum: codeTypes }).notNull(),
    taxable: boolean("taxable").notNull().default(false),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    unique("codes_client_code_key").on(t.clientId, t.code),
  ],
);

export const customers = pgTable(
  "customers",
  {
    clientId: clientIdColumn(),
    id: idColumn(),
    customerNo: integer("customer_no").notNull(),
    customerName: varchar("customer_name", { length: 160 }).notNull().default(""),
    firstName: varchar("first_name", { length: 80 }).notNull().default(""),
    lastName: varchar("last_name", { length: 80 }).notNull().default(""),
    companyName: varchar("company_name", { length: 120 }).notNull().default(""),
    phone1: varchar("phone1", { length: 14 }).notNull().default(""),
    phone2: varchar("phone2", { length: 14 }).notNull().default(""),
    phone3: varchar("phone3", { length: 14 }).notNull().default(""),
    email: varchar("email", { length: 254 }).notNull().default(""),
    address1: varchar("address1", { length: 120 }).notNull().default(""),
    address2: varchar("address2", { length: 120 }).notNull().default(""),
    address3: varchar("address3", { length: 120 }).notNull().default(""),
    city: varchar("city", { length: 80 }).notNull().default(""),
    state: varchar("state", { length: 2 }).notNull().default(""),
    zip: varchar("zip", { length: 5 }).notNull().default(""),
    propertyAddress1: varchar("property_address1", { length: 120 }).notNull().default(""),
    propertyAddress2: varchar("property_address2", { length: 120 }).notNull().default(""),
    propertyAddress3: varchar("property_address3", { length: 120 }).notNull().default(""),
    propertyCity: varchar("property_city", { length: 80 }).notNull().default(""),
    propertyState: varchar("property_state", { length: 2 }).notNull().default(""),
    propertyZip: varchar("property_zip", { length: 5 }).notNull().default(""),
    /** Statement flag: A, T, P, N, L, E, M. */
    pullFlag: varchar("pull_flag", { length: 1 }).notNull().default("A"),
    pullExplanation: varchar("pull_explanation", { length: 1 }).notNull().default("0"),
    /** Invoice flag: M, E, B. */
    biPullFlag: varchar("bi_pull_flag", { length: 1 }).notNull().default("M"),
    /** C use the client's flag; 1/2/3; N. */
    financeFlag: varchar("finance_flag", { length: 1 }).notNull().default("C"),
    autopayFlag: boolean("autopay_flag").notNull().default(false),
    taxStatus: varchar("tax_status", { length: 1 }).notNull().default("T"),
    message: text("message").notNull().default(""),
    messageDuration: integer("message_duration").notNull().default(0),
    messageInternal: text("message_internal").notNull().default(""),
    messageField: text("message_field").notNull().default(""),
    bluepayTransactionId: varchar("bluepay_transaction_id", { length: 64 }).notNull().default(""),
    bluepayTransactionMessage: text("bluepay_transaction_message").notNull().default(""),
    /** D: delete when zero, billing stopped; S: delete when zero, billing continued; null: no mark. */
    deleteFlag: varchar("delete_flag", { length: 1 }),
    deleted: boolean("deleted").notNull().default(false),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    openDate: date("open_date").notNull().defaultNow(),
    lastPayDate: date("last_pay_date"),
    // Running figures, changed in the same database transaction as each posting.
    totalBalance: amountColumn("total_balance").notNull().default("0"),
    mtdCharges: amountColumn("mtd_charges").notNull().default("0"),
    mtdPayments: amountColumn("mtd_payments").notNull().default("0"),
    mtdCrAdj: amountColumn("mtd_cr_adj").notNull().default("0"),
    mtdDbAdj: amountColumn("mtd_db_adj").notNull().default("0"),
    // Tallies of the customer's ledger (entries and the sum of their amounts), kept beside the balance
    // so a client's unfiltered ledger totals read 50k customer rows instead of 1M entries.
    ledgerEntries: integer("ledger_entries").notNull().default(0),
    ledgerAmountTotal: amountColumn("ledger_amount_total").notNull().default("0"),
    // Ageing as of the last statement, written by the production run.
    previousBalance: amountColumn("previous_balance").notNull().default("0"),
    currentBalance: amountColumn("current_balance").notNull().default("0"),
    overdue30Days: amountColumn("overdue_30_days").notNull().default("0"),
    overdue60Days: amountColumn("overdue_60_days").notNull().default("0"),
    overdue90Days: amountColumn("overdue_90_days").notNull().default("0"),
    overdueOver90Days: amountColumn("overdue_over_90_days").notNull().default("0"),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
    /** Everything the list's text filter looks in, lower-cased, kept by the database. */
    searchText: text("search_text").generatedAlwaysAs(
      sql`lower(customer_no::text || ' ' || customer_name || ' ' || first_name || ' ' || last_name || ' ' || company_name || ' ' || email || ' ' || address1 || ' ' || city || ' ' || phone1)`,
    ),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    unique("customers_client_customer_no_key").on(t.clientId, t.customerNo),
    index("customers_client_name_idx").on(t.clientId, t.customerName),
    // The list's sort columns: a page sorted by them reads 15 rows, not 50,000. Of the columns
    // postings change only the balance is indexed (staff sort by it to see who owes most; unindexed it
    // was a 50,000-row sort on every such page, 28% of the database's time under the load mix): it
    // makes a posting's update of the row a non-HOT one (0.13 ms became 0.45 ms under that load).
    index("customers_client_city_id_idx").on(t.clientId, t.city, t.id),
    index("customers_client_email_id_idx").on(t.clientId, t.email, t.id),
    index("customers_client_open_date_id_idx").on(t.clientId, t.openDate, t.id),
    index("customers_client_first_name_id_idx").on(t.clientId, t.firstName, t.id),
    index("customers_client_last_name_id_idx").on(t.clientId, t.lastName, t.id),
    index("customers_client_balance_id_idx").on(t.clientId, t.totalBalance, t.id),
    index("customers_search_trgm_idx").using("gin", t.searchText.op("gin_trgm_ops")),
  ],
);

export const billIndicatorFlags = ["standard", "skip", "pause"] as const;

/** A group (route) of customers. */
export const routes = pgTable(
  "routes",
  {
    clientId: clientIdColumn(),
    id: idColumn(),
    routeName: varchar("route_name", { length: 80 }).notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.id] })],
);

/** A customer's membership and position (stop) in a group. */
export const routePlans = pgTable(
  "route_plans",
  {
    clientId: clientIdColumn(),
    id: idColumn(),
    routeId: refColumn("route_id").notNull(),
    customerId: refColumn("customer_id").notNull(),
    stop: integer("stop").notNull(),
    billIndicatorFlag: varchar("bill_indicator_flag", { length: 8, enum: billIndicatorFlags })
      .notNull()
      .default("standard"),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    unique("route_plans_route_customer_key").on(t.clientId, t.routeId, t.customerId),
    clientForeignKey("route_plans_route_id_fk", [t.clientId, t.routeId], routes).onDelete("cascade"),
    clientForeignKey("route_plans_customer_id_fk", [t.clientId, t.customerId], customers).onDelete("cascade"),
    index("route_plans_route_stop_idx").on(t.clientId, t.routeId, t.stop),
  ],
);

/** A customer's charge by code: what stored amounts and recurring charges both hold, in this order. */
const customerChargeColumns = () => ({
  customerId: refColumn("customer_id").notNull(),
  codeId: refColumn("code_id").notNull(),
  description: varchar("description", { length: 60 }).notNull().default(""),
  rate: rateColumn("rate").notNull(),
  quantity: quantityColumn("quantity").notNull().default("1"),
  unitOfMeasureId: refColumn("unit_of_measure_id").references(() => unitsOfMeasure.id),
  amount: amountColumn("amount").notNull(),
});

export const storedAmounts = pgTable(
  "stored_amounts",
  {
    clientId: clientIdColumn(),
    id: idColumn(),
    ...customerChargeColumns(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    clientForeignKey("stored_amounts_customer_id_fk", [t.clientId, t.customerId], customers).onDelete(
      "cascade",
    ),
    clientForeignKey("stored_amounts_code_id_fk", [t.clientId, t.codeId], codes),
    index("stored_amounts_customer_idx").on(t.clientId, t.customerId),
  ],
);

export const recurringFrequencies = [
  "daily",
  "weekly",
  "biweekly",
  "semimonthly",
  "monthly",
  "bimonthly",
  "quarterly",
  "semiannual",
  "annual",
] as const;

/** Recurring charge ("auto amount") posted by the production run. */
export const recurringCharges = pgTable(
  "recurring_charges",
  {
    clientId: clientIdColumn(),
    id: idColumn(),
    ...customerChargeColumns(),
    startMonth: smallint("start_month").notNull(),
    endMonth: smallint("end_month").notNull(),
    frequency: varchar("frequency", { length: 12, enum: recurringFrequencies }).notNull().default("monthly"),
    /** false = Advance, true = Arrears. */
    arrears: boolean("arrears").notNull().default(false),
    lastBilledOn: date("last_billed_on"),
    /** The first day it may bill (null: the day it was created); never before the customer's open date. */
    startDate: date("start_date"),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    clientForeignKey("recurring_charges_customer_id_fk", [t.clientId, t.customerId], customers).onDelete(
      "cascade",
    ),
    clientForeignKey("recurring_charges_code_id_fk", [t.clientId, t.codeId], codes),
    index("recurring_charges_customer_idx").on(t.clientId, t.customerId),
  ],
);

export const invoiceStatuses = ["open", "closed", "processed"] as const;

/** A statement produced for a customer by a production run (or a test helper using the same functions). */
export const statements = pgTable(
  "statements",
  {
    clientId: clientIdColumn(),
    id: idColumn(),
    statementNum: integer("statement_num").notNull(),
    customerId: refColumn("customer_id").notNull(),
    statementDate: date("statement_date").notNull(),
    invoiceStatus: varchar("invoice_status", { length: 10, enum: invoiceStatuses })
      .notNull()
      .default("processed"),
    poolId: refColumn("pool_id").references(() => pools.id, { onDelete: "set null" }),
    productionRunId: refColumn("production_run_id"),
    /** How it goes out: mail, email, both, bulk shipping to the client, or not sent (pulled). */
    delivery: varchar("delivery", { length: 8, enum: ["mail", "email", "both", "bulk", "pulled"] })
      .notNull()
      .default("mail"),
    previousBalance: amountColumn("previous_balance").notNull().default("0"),
    charges: amountColumn("charges").notNull().default("0"),
    payments: amountColumn("payments").notNull().default("0"),
    creditAdjustments: amountColumn("credit_adjustments").notNull().default("0"),
    debitAdjustments: amountColumn("debit_adjustments").notNull().default("0"),
    lateFees: amountColumn("late_fees").notNull().default("0"),
    newBalance: amountColumn("new_balance").notNull().default("0"),
    currentBalance: amountColumn("current_balance").notNull().default("0"),
    overdue30Days: amountColumn("overdue_30_days").notNull().default("0"),
    overdue60Days: amountColumn("overdue_60_days").notNull().default("0"),
    overdue90Days: amountColumn("overdue_90_days").notNull().default("0"),
    overdueOver90Days: amountColumn("overdue_over_90_days").notNull().default("0"),
    /** Pages it prints on, once drawn into its pool or email (more than one is an overflow bill). */
    pages: smallint("pages"),
    /**
     * The unguessable half of the pay code printed on the statement and carried in its email's pay
     * link (statement numbers are sequential, so they must never open a payment page alone).
     */
    payCode: varchar("pay_code", { length: 32 })
      .notNull()
      .default(sql`replace(gen_random_uuid()::text, '-', '')`),
    /**
     * What the statement announced to an autopay customer, recorded when its autopay charge was
     * planned: the method ("VISA ending 1111") and the charge date (null: it asked to be paid). Its
     * pay page shows the statement as it was, not the customer's autopay of today.
     */
    autopayMethod: varchar("autopay_method", { length: 60 }),
    autopayChargeDate: date("autopay_charge_date"),
    /** 1 as issued; a corrected statement (reissued after its period changed) is its original's + 1. */
    version: smallint("version").notNull().default(1),
    /** The corrected version that replaced this one (kept as it was sent); null: the current version. */
    replacedById: refColumn("replaced_by_id"),
    /** The business day a corrected version was issued (null on a first version). */
    correctedOn: date("corrected_on"),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    unique("statements_client_statement_num_key").on(t.clientId, t.statementNum, t.version),
    unique("statements_client_pay_code_key").on(t.clientId, t.payCode),
    index("statements_pool_idx")
      .on(t.clientId, t.poolId)
      .where(sql`pool_id is not null`),
    clientForeignKey("statements_customer_id_fk", [t.clientId, t.customerId], customers).onDelete("cascade"),
    clientForeignKey("statements_production_run_id_fk", [t.clientId, t.productionRunId], productionRuns),
    index("statements_customer_date_idx").on(t.clientId, t.customerId, t.statementDate),
    // One statement per customer and production run, whatever a replayed job does (a corrected
    // version shares its original's run).
    uniqueIndex("statements_run_customer_key")
      .on(t.clientId, t.productionRunId, t.customerId)
      .where(sql`production_run_id is not null and version = 1`),
  ],
);

export const invoices = pgTable(
  "invoices",
  {
    clientId: clientIdColumn(),
    id: idColumn(),
    invoiceNum: integer("invoice_num").notNull(),
    customerId: refColumn("customer_id").notNull(),
    invoiceDate: date("invoice_date").notNull(),
    invoiceStatus: varchar("invoice_status", { length: 10, enum: invoiceStatuses }).notNull().default("open"),
    /** The statement that carried this invoice to the customer, once processed. */
    statementId: refColumn("statement_id"),
    createdByUserId: refColumn("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAtColumn(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    unique("invoices_client_invoice_num_key").on(t.clientId, t.invoiceNum),
    clientForeignKey("invoices_customer_id_fk", [t.clientId, t.customerId], customers).onDelete("cascade"),
    clientForeignKey("invoices_statement_id_fk", [t.clientId, t.statementId], statements),
    index("invoices_customer_date_idx").on(t.clientId, t.customerId, t.invoiceDate),
    index("invoices_statement_idx")
      .on(t.clientId, t.statementId)
      .where(sql`statement_id is not null`),
  ],
);

export const transactionStatuses = ["new", "attached"] as const;
export const transactionTypes = [
  "user_or_scanner",
  "route",
  "bulk",
  "voids_a_transaction",
  "invoice",
  // Posted by the production run.
  "recurring",
  "late_fee",
] as const;

/** The ledger. A customer's total_balance always equals the sum of ledger_amount of its rows. */
export const transactions = pgTable(
  "transactions",
  {
    // No foreign key of its own to clients: the customer's key (client_id, customer_id) already
    // ties every entry to its client, and one check fewer per row speeds set-based postings.
    clientId: refColumn("client_id").notNull(),
    id: idColumn(),
    customerId: refColumn("customer_id").notNull(),
    codeId: refColumn("code_id").notNull(),
    description: varchar("description", { length: 60 }).notNull().default(""),
    quantity: quantityColumn("quantity").notNull().default("1"),
    rate: rateColumn("rate").notNull(),
    /** Never negative; rate × quantity rounded to 2 places. */
    amount: amountColumn("amount").notNull(),
    /** Signed effect on the customer's balance, derived from the code type when posted. */
    ledgerAmount: amountColumn("ledger_amount").notNull(),
    serviceDate: date("service_date").notNull().defaultNow(),
    unitOfMeasureId: refColumn("unit_of_measure_id").references(() => unitsOfMeasure.id),
    transactionStatus: varchar("transaction_status", { length: 10, enum: transactionStatuses })
      .notNull()
      .default("new"),
    transactionType: varchar("transaction_type", { length: 20, enum: transactionTypes })
      .notNull()
      .default("user_or_scanner"),
    invoiceId: refColumn("invoice_id"),
    statementId: refColumn("statement_id"),
    /** For a voiding entry: the transaction it voids. */
    voidsTransactionId: refColumn("voids_transaction_id"),
    /** For a reversal: the transaction it reverses. */
    reversesTransactionId: refColumn("reverses_transaction_id"),
    voided: boolean("voided").notNull().default(false),
    storedAmountFlag: boolean("stored_amount_flag").notNull().default(true),
    recurringChargeId: refColumn("recurring_charge_id"),
    productionRunId: refColumn("production_run_id"),
    /**
     * Natural key of an entry a job posts (recurring:<charge>:<YYYY-MM>, late-fee:<run>:<customer>):
     * unique per client, so a replayed job can never post it twice.
     */
    sourceKey: varchar("source_key", { length: 80 }),
    /** The gateway's TRANS_ID of a card or ACH payment entry (null for everything else). */
    gatewayTransId: varchar("gateway_trans_id", { length: 64 }),
    createdByUserId: refColumn("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    clientForeignKey("transactions_customer_id_fk", [t.clientId, t.customerId], customers).onDelete(
      "cascade",
    ),
    clientForeignKey("transactions_code_id_fk", [t.clientId, t.codeId], codes),
    clientForeignKey("transactions_invoice_id_fk", [t.clientId, t.invoiceId], invoices),
    clientForeignKey("transactions_statement_id_fk", [t.clientId, t.statementId], statements),
    clientForeignKey("transactions_voids_transaction_id_fk", [t.clientId, t.voidsTransactionId], t).onDelete(
      "cascade",
    ),
    clientForeignKey(
      "transactions_reverses_transaction_id_fk",
      [t.clientId, t.reversesTransactionId],
      t,
    ).onDelete("cascade"),
    clientForeignKey(
      "transactions_recurring_charge_id_fk",
      [t.clientId, t.recurringChargeId],
      recurringCharges,
    ),
    clientForeignKey("transactions_production_run_id_fk", [t.clientId, t.productionRunId], productionRuns),
    // The id ends the date indexes: lists order by date then id, and a page of the newest 50 reads
    // 50 index entries instead of every entry of the newest day (5,000 on a large client) and sorting.
    index("transactions_customer_service_date_id_idx").on(t.clientId, t.customerId, t.serviceDate, t.id),
    index("transactions_client_created_id_idx").on(t.clientId, t.createdAt, t.id),
    index("transactions_client_service_date_id_idx").on(t.clientId, t.serviceDate, t.id),
    index("transactions_code_service_date_idx").on(t.clientId, t.codeId, t.serviceDate),
    // The list sorted by amount or description: without them a page read and sorted every entry
    // of the client (about 2 s for 1,000,000 under load, half the database time of the load mix).
    index("transactions_client_amount_id_idx").on(t.clientId, t.amount, t.id),
    index("transactions_client_description_id_idx").on(t.clientId, t.description, t.id),
    index("transactions_invoice_idx").on(t.clientId, t.invoiceId),
    // Partial indexes behind the self- and cross-references, so deleting a row never scans the ledger.
    index("transactions_voids_idx")
      .on(t.clientId, t.voidsTransactionId)
      .where(sql`voids_transaction_id is not null`),
    index("transactions_reverses_idx")
      .on(t.clientId, t.reversesTransactionId)
      .where(sql`reverses_transaction_id is not null`),
    index("transactions_statement_idx")
      .on(t.clientId, t.statementId)
      .where(sql`statement_id is not null`),
    index("transactions_recurring_charge_idx")
      .on(t.clientId, t.recurringChargeId)
      .where(sql`recurring_charge_id is not null`),
    index("transactions_production_run_idx")
      .on(t.clientId, t.productionRunId)
      .where(sql`production_run_id is not null`),
    uniqueIndex("transactions_source_key")
      .on(t.clientId, t.sourceKey)
      .where(sql`source_key is not null`),
  ],
);

/**
 * One email delivery of one statement: queued when the run makes it, sent once the SMTP server
 * accepted it, failed with the server's answer (retried with backoff until the job gives up).
 */
export const statementDeliveries = pgTable(
  "statement_deliveries",
  {
    clientId: clientIdColumn(),
    id: idColumn(),
    statementId: refColumn("statement_id").notNull(),
    productionRunId: refColumn("production_run_id"),
    channel: varchar("channel", { length: 8, enum: ["email"] })
      .notNull()
      .default("email"),
    recipient: varchar("recipient", { length: 254 }).notNull(),
    status: varchar("status", { length: 8, enum: ["queued", "sending", "sent", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    messageId: varchar("message_id", { length: 200 }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    // One email per statement, whatever a replayed or resumed job does.
    unique("statement_deliveries_statement_channel_key").on(t.clientId, t.statementId, t.channel),
    clientForeignKey(
      "statement_deliveries_statement_id_fk",
      [t.clientId, t.statementId],
      statements,
    ).onDelete("cascade"),
    index("statement_deliveries_run_idx").on(t.clientId, t.productionRunId, t.status),
  ],
);

/**
 * One statement sent again on its own (migration 0043): by email (one row per press, claimed before
 * it goes) or queued for the client's next print pool (pool_id set when that pool is made). Owned by
 * modules/delivery (statement-resends.ts).
 */
export const statementResends = pgTable(
  "statement_resends",
  {
    clientId: clientIdColumn(),
    id: idColumn(),
    statementId: refColumn("statement_id").notNull(),
    channel: varchar("channel", { length: 8, enum: ["email", "pool"] }).notNull(),
    status: varchar("status", { length: 8, enum: ["queued", "sending", "sent", "failed"] })
      .notNull()
      .default("queued"),
    recipient: varchar("recipient", { length: 254 }).notNull().default(""),
    poolId: refColumn("pool_id").references(() => pools.id, { onDelete: "set null" }),
    messageId: varchar("message_id", { length: 200 }),
    lastError: text("last_error"),
    requestedByUserId: refColumn("requested_by_user_id").references(() => users.id, {
      onDelete: "set null",
    }),
    createdAt: createdAtColumn(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    clientForeignKey("statement_resends_statement_id_fk", [t.clientId, t.statementId], statements).onDelete(
      "cascade",
    ),
    index("statement_resends_statement_idx").on(t.clientId, t.statementId),
    index("statement_resends_pool_queue_idx")
      .on(t.clientId)
      .where(sql`channel = 'pool' and pool_id is null`),
  ],
);

export const wentOutKinds = ["email", "pool", "link_payment", "link_view"] as const;
export const wentOutStates = ["claimed", "done", "refused"] as const;

/**
 * What of a run part went out (migration 0038), claimed before it goes and never removed: an email
 * handed to the mail server, a pool downloaded, a statement paid or viewed through its link. Undo
 * refuses while a claim stands that is not refused. Owned by modules/delivery (went-out.ts).
 */
export const wentOut = pgTable(
  "went_out",
  {
    clientId: clientIdColumn(),
    id: idColumn(),
    productionRunId: refColumn("production_run_id").notNull(),
    kind: varchar("kind", { length: 12, enum: wentOutKinds }).notNull(),
    /** The thing within its kind: a statement id (email, view), a pool name, a payment attempt id. */
    ref: varchar("ref", { length: 120 }).notNull(),
    state: varchar("state", { length: 8, enum: wentOutStates }).notNull().default("claimed"),
    statementId: refColumn("statement_id"),
    detail: text("detail"),
    claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: "went_out_pkey", columns: [t.clientId, t.id] }),
    uniqueIndex("went_out_thing_key").on(t.clientId, t.productionRunId, t.kind, t.ref),
  ],
);

/**
 * Which customers' ledger or ageing inputs changed, one row per customer per database transaction,
 * written by the ledger module (and the customer writes that change the summary's inputs) in the
 * same transaction as the change. Each API process's client book (modules/summary/client-book.ts)
 * rereads only the customers whose rows its last snapshot could not see. Pruned after a day.
 */
export const customerChanges = pgTable(
  "customer_changes",
  {
    clientId: clientIdColumn(),
    /** The writing transaction's id (pg_current_xact_id, 64-bit): compared with snapshots, not ordered. */
    txid: bigint("txid", { mode: "bigint" })
      .notNull()
      .default(sql`(pg_current_xact_id()::text)::bigint`),
    customerId: refColumn("customer_id").notNull(),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.txid, t.customerId] }),
    index("customer_changes_changed_at_idx").on(t.changedAt),
  ],
);
