import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import {
  amountColumn,
  createdAtColumn,
  idColumn,
  rateColumn,
  refColumn,
  updatedAtColumn,
} from "./columns.js";

// Global (reference) tables: not owned by one tenant. Everything else carries client_id.

export const clients = pgTable(
  "clients",
  {
    id: idColumn().primaryKey(),
    clientNo: integer("client_no").notNull(),
    clientName: varchar("client_name", { length: 120 }).notNull(),
    address1: varchar("address1", { length: 120 }).notNull().default(""),
    address2: varchar("address2", { length: 120 }).notNull().default(""),
    address3: varchar("address3", { length: 120 }).notNull().default(""),
    city: varchar("city", { length: 80 }).notNull().default(""),
    state: varchar("state", { length: 2 }).notNull().default(""),
    zip: varchar("zip", { length: 5 }).notNull().default(""),
    zip4: varchar("zip4", { length: 4 }).notNull().default(""),
    busPhone: varchar("bus_phone", { length: 14 }).notNull().default(""),
    faxNumber: varchar("fax_number", { length: 14 }).notNull().default(""),
    cellPhone: varchar("cell_phone", { length: 14 }).notNull().default(""),
    homePhone: varchar("home_phone", { length: 14 }).notNull().default(""),
    email: varchar("email", { length: 254 }).notNull().default(""),
    businessOwner: varchar("business_owner", { length: 120 }).notNull().default(""),
    primaryContact: varchar("primary_contact", { length: 120 }).notNull().default(""),
    alternateContact: varchar("alternate_contact", { length: 120 }).notNull().default(""),
    bluepayAccountId: varchar("bluepay_account_id", { length: 64 }).notNull().default(""),
    /** Gateway secret, encrypted at rest; never returned by the API. */
    bluepaySecretKeyEncrypted: text("bluepay_secret_key_encrypted"),
    alternateName: varchar("alternate_name", { length: 120 }).notNull().default(""),
    alternateAddress1: varchar("alternate_address1", { length: 120 }).notNull().default(""),
    alternateAddress2: varchar("alternate_address2", { length: 120 }).notNull().default(""),
    alternateAddress3: varchar("alternate_address3", { length: 120 }).notNull().default(""),
    alternateCity: varchar("alternate_city", { length: 80 }).notNull().default(""),
    alternateState: varchar("alternate_state", { length: 2 }).notNull().default(""),
    alternateZip: varchar("alternate_zip", { length: 5 }).notNull().default(""),
    alternateBusPhone: varchar("alternate_bus_phone", { length: 14 }).notNull().default(""),
    /** Alt address flags 1-4; empty when unused. */
    alternateAddressFlag: varchar("alternate_address_flag", { length: 1 }).notNull().default(""),
    businessType: varchar("business_type", { length: 80 }).notNull().default(""),
    sicCode: varchar("sic_code", { length: 10 }).notNull().default(""),
    businessForm: varchar("business_form", { length: 80 }).notNull().default(""),
    license: varchar("license", { length: 80 }).notNull().default(""),
    corporateName: varchar("corporate_name", { length: 120 }).notNull().default(""),
    pullDuration: integer("pull_duration").notNull().default(0),
    /** Pull explanations 0-3: not set, send with reports, insert, special handling. */
    pullExplanation: varchar("pull_explanation", { length: 1 }).notNull().default("0"),
    termsMessage: varchar("terms_message", { length: 20 }).notNull().default(""),
    /** Days from a statement's date to its due date (0: due on receipt); the terms text is only printed. */
    dueDays: integer("due_days").notNull().default(30),
    infoMessage: text("info_message").notNull().default(""),
    billMessageLine1: varchar("bill_message_line_1", { length: 80 }).notNull().default(""),
    billMessageLine2: varchar("bill_message_line_2", { length: 80 }).notNull().default(""),
    billMessageLine3: varchar("bill_message_line_3", { length: 80 }).notNull().default(""),
    biMessage: text("bi_message").notNull().default(""),
    /** Shown in the notification bell of this client's users. */
    clientMessage: text("client_message").notNull().default(""),
    /** Cycle day 1-27, or 99. */
    normalCycle: smallint("normal_cycle").notNull().default(1),
    cycleRan: boolean("cycle_ran").notNull().default(false),
    daysInLastCycle: integer("days_in_last_cycle").notNull().default(0),
    clientStartDate: date("client_start_date"),
    dateFirstBilling: date("date_first_billing"),
    dateLastBilling: date("date_last_billing"),
    dateThisBilling: date("date_this_billing"),
    numberBillsSentYtd: integer("number_bills_sent_ytd").notNull().default(0),
    numberBiSentYtd: integer("number_bi_sent_ytd").notNull().default(0),
    /** Client status: A, M, C, N, I, P, D. */
    statusCode: varchar("status_code", { length: 1 }).notNull().default("A"),
    /** Inactive flag: '' none, C no bills, D no bills no reports. */
    inactiveFlag: varchar("inactive_flag", { length: 1 }).notNull().default(""),
    /** Finance flag: N none; 1/2/3 begin at 30/60/90 days overdue; E exception. */
    financeFlag: varchar("finance_flag", { length: 1 }).notNull().default("N"),
    thirtyDayRateOrPercent: varchar("thirty_day_rate_or_percent", { length: 7 }).notNull().default("rate"),
    sixtyDayRateOrPercent: varchar("sixty_day_rate_or_percent", { length: 7 }).notNull().default("rate"),
    ninetyDayRateOrPercent: varchar("ninety_day_rate_or_percent", { length: 7 }).notNull().default("rate"),
    financeRate30Day: rateColumn("finance_rate_30_day"),
    dayFinanceRate60Day: rateColumn("day_finance_rate_60_day"),
    dayFinanceRate90Day: rateColumn("day_finance_rate_90_day"),
    dayCharge30Day: amountColumn("day_charge_30_day"),
    dayCharge60Day: amountColumn("day_charge_60_day"),
    dayCharge90Day: amountColumn("day_charge_90_day"),
    permissionToRefDate: date("permission_to_ref_date"),
    codeSet: varchar("code_set", { length: 20 }).notNull().default(""),
    fiscalYearResetMonth: smallint("fiscal_year_reset_month").notNull().default(1),
    /** Bill production criteria 00, 01, 02, 03, 99. */
    billCriteria: varchar("bill_criteria", { length: 2 }).notNull().default("00"),
    /** Bill fulfilment: '' mail, C bulk ship to client, A ship to alternate address. */
    billFulfilment: varchar("bill_fulfilment", { length: 1 }).notNull().default(""),
    processType: varchar("process_type", { length: 2 }).notNull().default("00"),
    // Rates charged by the provider to the client.
    emailedBillRate: rateColumn("emailed_bill_rate").notNull().default("0"),
    creditCardBillRate: rateColumn("credit_card_bill_rate").notNull().default("0"),
    pulledBillRate: rateColumn("pulled_bill_rate").notNull().default("0"),
    mailedBillRate: rateColumn("mailed_bill_rate").notNull().default("0"),
    overflowBillRate: rateColumn("overflow_bill_rate").notNull().default("0"),
    discounts: rateColumn("discounts").notNull().default("0"),
    basicFee: amountColumn("basic_fee").notNull().default("0"),
    accountRate: rateColumn("account_rate").notNull().default("0"),
    numberEmailedBills: integer("number_emailed_bills").notNull().default(0),
    numberCreditCardBills: integer("number_credit_card_bills").notNull().default(0),
    numberPulledBills: integer("number_pulled_bills").notNull().default(0),
    numberMailedBills: integer("number_mailed_bills").notNull().default(0),
    numberBillOverflows: integer("number_bill_overflows").notNull().default(0),
    /** Closed periods: the client's books are closed through this date (its last issued statements'
     * date); nothing posts with a service date on or before it. Null: nothing closed yet. */
    booksClosedThrough: date("books_closed_through"),
    /** BluePay seal hash type for this client's account (TPS_HASH_TYPE); null means HMAC_SHA512. */
    gatewayHashType: varchar("gateway_hash_type", { length: 12 }),
    /** NACHA: present an ACH debit returned R01/R09 again (at most twice within 180 days); off by default. */
    representAchReturns: boolean("represent_ach_returns").notNull().default(false),
    /** A fee charged once per ACH entry returned R01/R09; 0: none. */
    achReturnFee: amountColumn("ach_return_fee").notNull().default("0"),
    /** Every user of this client must set up a second factor before reaching anything else. */
    requireSecondFactor: boolean("require_second_factor").notNull().default(false),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [uniqueIndex("clients_client_no_key").on(t.clientNo)],
);

export const users = pgTable(
  "users",
  {
    id: idColumn().primaryKey(),
    username: varchar("username", { length: 254 }).notNull(),
    email: varchar("email", { length: 254 }).notNull(),
    firstName: varchar("first_name", { length: 80 }).notNull().default(""),
    lastName: varchar("last_name", { length: 80 }).notNull().default(""),
    /** argon2id hash; null until the user sets a password. */
    passwordHash: text("password_hash"),
    isActive: boolean("is_active").notNull().default(true),
    isAdmin: boolean("is_admin").notNull().default(false),
    isClientStaff: boolean("is_client_staff").notNull().default(false),
    /** The user's client; null for provider admins and for registrations not yet attached. */
    clientId: refColumn("client_id").references(() => clients.id, { onDelete: "set null" }),
    lastLogin: timestamp("last_login", { withTimezone: true }),
    /** Tokens issued before this instant are refused (set when the password changes). */
    tokensValidAfter: timestamp("tokens_valid_after", { withTimezone: true }),
    loginCount: integer("login_count").notNull().default(0),
    /**
     * When the address's owner proved the email (followed an emailed link); set at once for accounts
     * the operator makes. Null: the account cannot sign in, and an owner's invitation may replace it.
     */
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    // One proven account per address; unproven rows (registrations, invitations) may share it.
    uniqueIndex("users_username_key")
      .on(sql`lower(${t.username})`)
      .where(sql`${t.emailVerifiedAt} is not null`),
    uniqueIndex("users_email_key")
      .on(sql`lower(${t.email})`)
      .where(sql`${t.emailVerifiedAt} is not null`),
    uniqueIndex("users_unattached_email_key")
      .on(sql`lower(${t.email})`)
      .where(sql`${t.clientId} is null`),
    uniqueIndex("users_client_email_key")
      .on(t.clientId, sql`lower(${t.email})`)
      .where(sql`${t.clientId} is not null`),
    index("users_client_idx").on(t.clientId),
  ],
);

export const sessionEndReasons = [
  "logout",
  "ended",
  "signed_out_elsewhere",
  "password_changed",
  "password_reset",
  "factor_changed",
] as const;
export type SessionEndReason = (typeof sessionEndReasons)[number];

/**
 * Each sign-in: the access token (by its id) is accepted only while its session is open (ended_at
 * null, expires_at ahead). Ending one (logout, the user or an owner or admin ending it, a password
 * change) notifies every API process at once (migration 0034). Owned by modules/sessions.
 */
export const userSessions = pgTable(
  "user_sessions",
  {
    id: idColumn().primaryKey(),
    userId: refColumn("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The access token's jti. */
    tokenId: varchar("token_id", { length: 64 }).notNull(),
    userAgent: varchar("user_agent", { length: 512 }),
    /** Readable device from the user agent, e.g. "Chrome on Linux". */
    device: varchar("device", { length: 120 }).notNull().default(""),
    /** The address as the sign-in throttle sees it (request.ip). */
    address: varchar("address", { length: 64 }).notNull().default(""),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    /** Refreshed at most once a minute by authentication. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    endedByUserId: refColumn("ended_by_user_id").references(() => users.id, { onDelete: "set null" }),
    endReason: varchar("end_reason", { length: 32, enum: sessionEndReasons }),
  },
  (t) => [
    uniqueIndex("user_sessions_token_id_key").on(t.tokenId),
    index("user_sessions_user_idx").on(t.userId, t.startedAt),
    index("user_sessions_expires_idx").on(t.expiresAt),
  ],
);

/**
 * A user's authenticator app (TOTP, RFC 6238): the secret sealed with the secrets key, confirmed
 * once a code from it was typed, and the last time step used (a code is refused once used).
 */
export const userTotpFactors = pgTable("user_totp_factors", {
  userId: refColumn("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretSealed: text("secret_sealed").notNull(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  createdAt: createdAtColumn(),
});

/** A user's one-use recovery codes (ten at a time), as SHA-256; the codes are shown once. */
export const userRecoveryCodes = pgTable(
  "user_recovery_codes",
  {
    id: idColumn().primaryKey(),
    userId: refColumn("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: varchar("code_hash", { length: 64 }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex("user_recovery_codes_user_hash_key").on(t.userId, t.codeHash)],
);

/** A user's passkeys (WebAuthn credentials, migration 0036): public keys only, with the last signature count. */
export const userPasskeys = pgTable(
  "user_passkeys",
  {
    id: idColumn().primaryKey(),
    userId: refColumn("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** base64url, as the browser names the credential. */
    credentialId: varchar("credential_id", { length: 1400 }).notNull(),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    signCount: bigint("sign_count", { mode: "number" }).notNull().default(0),
    /** Comma-separated transports the browser reported ("internal,hybrid"). */
    transports: varchar("transports", { length: 200 }).notNull().default(""),
    name: varchar("name", { length: 100 }).notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex("user_passkeys_credential_id_key").on(t.credentialId),
    index("user_passkeys_user_id_idx").on(t.userId),
  ],
);

/** A WebAuthn challenge handed out for enrolment or sign-in: five minutes, spent once. */
export const passkeyChallenges = pgTable(
  "passkey_challenges",
  {
    id: idColumn().primaryKey(),
    userId: refColumn("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: varchar("purpose", { length: 20 }).$type<"register" | "sign_in">().notNull(),
    challenge: varchar("challenge", { length: 200 }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex("passkey_challenges_challenge_key").on(t.challenge),
    index("passkey_challenges_user_id_idx").on(t.userId),
  ],
);

export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: idColumn().primaryKey(),
    userId: refColumn("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 of the emailed token; the token itself is never stored. */
    tokenHash: varchar("token_hash", { length: 64 }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex("password_reset_tokens_hash_key").on(t.tokenHash)],
);

/**
 * Attempts counted per purpose and key in fixed windows (login throttling, reset emails). A key is
 * an account, an address, or both; "" stands for "any". One row per key, so an attempt is counted
 * by one upsert that returns the new count before anything is checked.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    purpose: varchar("purpose", { length: 20 }).notNull(),
    account: varchar("account", { length: 254 }).notNull().default(""),
    address: varchar("address", { length: 64 }).notNull().default(""),
    attempts: integer("attempts").notNull(),
    windowStarted: timestamp("window_started", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.purpose, t.account, t.address] }),
    index("rate_limits_window_idx").on(t.windowStarted),
  ],
);

/** The provider's system message shown to every user; the newest row is current. */
export const systemMessages = pgTable("system_messages", {
  id: idColumn().primaryKey(),
  body: text("body").notNull(),
  createdByUserId: refColumn("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAtColumn(),
});

export const unitsOfMeasure = pgTable(
  "units_of_measure",
  {
    id: idColumn().primaryKey(),
    name: varchar("name", { length: 40 }).notNull(),
  },
  (t) => [uniqueIndex("units_of_measure_name_key").on(t.name)],
);

/**
 * A named print batch (admin): one client's statements of one production run that go out on paper
 * one way (mailed, shipped in bulk to the client, shipped to its alternate address, or pulled and
 * kept for the client), merged into one PDF in delivery order and zipped with a manifest.
 */
export const pools = pgTable(
  "pools",
  {
    id: idColumn().primaryKey(),
    poolName: varchar("pool_name", { length: 80 }).notNull(),
    poolDate: date("pool_date").notNull(),
    cycle: smallint("cycle"),
    clientId: refColumn("client_id").references(() => clients.id, { onDelete: "cascade" }),
    productionRunId: refColumn("production_run_id"),
    fulfilment: varchar("fulfilment", { length: 9, enum: ["mail", "bulk", "alternate", "pulled"] })
      .notNull()
      .default("mail"),
    state: varchar("state", { length: 8, enum: ["building", "ready", "failed"] })
      .notNull()
      .default("building"),
    statementsCount: integer("statements_count").notNull().default(0),
    pagesCount: integer("pages_count").notNull().default(0),
    /** Statements drawn into the pool's PDF so far (progress while building). */
    done: integer("done").notNull().default(0),
    fileBytes: bigint("file_bytes", { mode: "number" }),
    /** The build that owns the pool now: a build superseded by a retry stops at its next write. */
    builder: varchar("builder", { length: 40 }),
    error: text("error"),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** Overflow bills this pool added to its client's count: a redraw adds only the difference. */
    overflowsCounted: integer("overflows_counted").notNull().default(0),
    /** First download of the zip: the pool has gone to print, so its run can no longer be undone. */
    downloadedAt: timestamp("downloaded_at", { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex("pools_pool_name_key").on(t.poolName),
    // One pool per run part and fulfilment, however often the run's last step is replayed.
    uniqueIndex("pools_run_fulfilment_key")
      .on(t.clientId, t.productionRunId, t.fulfilment)
      .where(sql`production_run_id is not null`),
    index("pools_date_idx").on(t.poolDate, t.id),
  ],
);

/**
 * A production run of one cycle day and run date across the cycle's clients (admin): what
 * GET /api/productionruns/{id}/ answers. Each client's part is a production_runs row with its job run.
 */
export const cycleRuns = pgTable(
  "cycle_runs",
  {
    id: idColumn().primaryKey(),
    cycle: smallint("cycle").notNull(),
    runDate: date("run_date").notNull(),
    /** The clients asked for (null: the whole cycle). */
    clientIds: jsonb("client_ids").$type<number[] | null>(),
    /** The cycle's clients left out, with why (status, inactive flag, already run). */
    skipped: jsonb("skipped").$type<{ clientId: number; reason: string }[]>().notNull().default([]),
    idempotencyKey: varchar("idempotency_key", { length: 200 }),
    startedByUserId: refColumn("started_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    index("cycle_runs_cycle_date_idx").on(t.cycle, t.runDate),
    uniqueIndex("cycle_runs_idempotency_key").on(t.idempotencyKey),
  ],
);

export const productionRunStatus = ["queued", "running", "done", "failed"] as const;

/** One client's part of a production run; tenant-owned. One per client, cycle and month. */
export const productionRuns = pgTable(
  "production_runs",
  {
    clientId: refColumn("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    id: idColumn(),
    poolId: refColumn("pool_id").references(() => pools.id, { onDelete: "set null" }),
    cycleRunId: refColumn("cycle_run_id").references(() => cycleRuns.id, { onDelete: "set null" }),
    /** The job run that records this part's progress (job_runs of the same client). */
    jobRunId: refColumn("job_run_id"),
    /** The card run (job run) that charged this part's autopay customers, once started. */
    autopayJobRunId: refColumn("autopay_job_run_id"),
    cycle: smallint("cycle").notNull(),
    runDate: date("run_date").notNull(),
    /** YYYY-MM of the run date: a client bills once per cycle and month. */
    runMonth: varchar("run_month", { length: 7 }).notNull(),
    periodStart: date("period_start").notNull(),
    periodEnd: date("period_end").notNull(),
    status: varchar("status", { length: 12, enum: productionRunStatus }).notNull().default("queued"),
    statementsCount: integer("statements_count").notNull().default(0),
    recurringChargesPosted: integer("recurring_charges_posted").notNull().default(0),
    lateFeesPosted: integer("late_fees_posted").notNull().default(0),
    /** The run's figures once done (the same shape as the preview's). */
    figures: jsonb("figures"),
    startedByUserId: refColumn("started_by_user_id").references(() => users.id, { onDelete: "set null" }),
    startedAt: createdAtColumn(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    error: text("error"),
    /** The client's billing dates, counters and closed-through date before this part: what undo restores. */
    clientBefore: jsonb("client_before"),
    /** The job run undoing this part (job_runs of the same client), once asked for. */
    undoJobRunId: refColumn("undo_job_run_id"),
    undoRequestedByUserId: refColumn("undo_requested_by_user_id").references(() => users.id, {
      onDelete: "set null",
    }),
    /** When undo finished: the part's postings, statements and deliveries are gone. */
    undoneAt: timestamp("undone_at", { withTimezone: true }),
    /** What undo took away (statements, entries, pools, emails). */
    undoneFigures: jsonb("undone_figures"),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    index("production_runs_run_date_idx").on(t.clientId, t.runDate),
    // An undone part leaves the cycle and month free to run again.
    uniqueIndex("production_runs_client_cycle_month_key")
      .on(t.clientId, t.cycle, t.runMonth)
      .where(sql`undone_at is null`),
    index("production_runs_cycle_run_idx").on(t.cycleRunId),
  ],
);

export const closedPeriodActions = ["run", "reopen", "close"] as const;

/**
 * Every change of a client's books_closed_through: a run's statements closing the books ("run"),
 * an admin reopening them or closing them again, with who, when and why. A run's row keeps the
 * value before it, so undoing the run can put it back.
 */
export const closedPeriodEvents = pgTable(
  "closed_period_events",
  {
    clientId: refColumn("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    id: idColumn(),
    action: varchar("action", { length: 8, enum: closedPeriodActions }).notNull(),
    closedThroughBefore: date("closed_through_before"),
    closedThroughAfter: date("closed_through_after"),
    reason: text("reason").notNull().default(""),
    productionRunId: refColumn("production_run_id"),
    userId: refColumn("user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.id] }),
    index("closed_period_events_client_idx").on(t.clientId, t.createdAt),
    uniqueIndex("closed_period_events_run_key")
      .on(t.clientId, t.productionRunId)
      .where(sql`action = 'run'`),
  ],
);
