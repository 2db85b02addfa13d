import { and, eq, inArray, sql } from "drizzle-orm";
import {
  businessDate,
  cardRunInProgressMessage,
  NO_GATEWAY_KEY_MESSAGE,
  DEFAULT_DUE_DAYS,
  autopayChargeDate,
  paymentMethodLabel,
  type JobRun,
} from "@cyclebill/domain";
import { z } from "zod";
import { businessToday, currentClock } from "../../clock.js";
import type { Database, Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { customers, productionRuns } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { HttpError, notFound } from "../../http/errors.js";
import { createJobRunFor, jobRunToApi, planJobRun, readJobRun } from "../jobs/job-runs.js";
import { recordAutopayAnnounced } from "../statements/statement-marks.js";
import { clientTakesCardPayments } from "./card-payments-taken.js";

// A card run charges a list of customers with their stored methods, as a chunked job: Process CC
// ("bulk", the customers staff selected, each for its balance) or autopay (after a production run,
// each for its statement's amount due). Both plan the same way, in the caller's transaction.

/** The job's stable id: the kind of its job run and its pg-boss queue name. */
export const CARD_RUN_JOB = "card-run";
/** Customers per chunk: small, so the progress bar moves and a killed chunk redoes little. */
export const CARD_RUN_CHUNK_SIZE = 25;
export const CARD_RUN_STEP = "charging customers";

export type CardRunSource = "bulk" | "autopay";

/** One customer to charge: its balance (bulk), or at most its statement's amount due (autopay). */
export type CardRunItem = { customerId: number; amountDue?: string };

export type CardRunChunk = {
  clientId: number;
  runId: number;
  source: CardRunSource;
  chunkNo: number;
  items: CardRunItem[];
};

/** Queues chunk jobs inside the caller's transaction (they commit with the run's plan). */
export type EnqueueCardRunChunks = (
  tx: Executor,
  chunks: readonly { payload: CardRunChunk; priority?: number; startAfter?: Date }[],
) => Promise<void>;

/** Creates the run's job run, records its plan and enqueues its chunks: one transaction, the caller's. */
async function planCardRun(
  tx: Executor,
  input: {
    clientId: number;
    userId: number | null;
    source: CardRunSource;
    items: readonly CardRunItem[];
    startAfter?: Date;
  },
  enqueue: EnqueueCardRunChunks,
): Promise<number> {
  const row = await createJobRunFor(tx, input.clientId, CARD_RUN_JOB, input.userId);
  const key = { clientId: input.clientId, runId: row.id };
  const chunks: CardRunItem[][] = [];
  for (let start = 0; start < input.items.length; start += CARD_RUN_CHUNK_SIZE)
    chunks.push(input.items.slice(start, start + CARD_RUN_CHUNK_SIZE));
  await planJobRun(tx, key, { total: input.items.length, chunkCount: chunks.length, step: CARD_RUN_STEP });
  await enqueue(
    tx,
    chunks.map((items, chunkNo) => ({
      payload: { ...key, source: input.source, chunkNo, items },
      // Chunks in order: the results table fills from the top.
      priority: -chunkNo,
      startAfter: input.startAfter,
    })),
  );
  return row.id;
}

/** A card run of the client still queued or running; an autopay run's charge date. */
const activeRunRowSchema = z.object({
  id: dbInt,
  started_epoch: z.number(),
  autopay: z.boolean(),
  charge_date: dbDate.nullable(),
});

function timeOfDay(at: Date, timeZone: string): string {
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  return `${businessDate(at, timeZone)} ${format.format(at)}`;
}

/**
 * The client's card run that is charging now or due today, if any. An autopay run waiting for a later
 * charge date (Net 30 leaves it queued for a month) charges nobody yet, so it blocks nothing: when its
 * day comes it charges each customer at most what is owed then, after whatever Process CC took.
 */
async function blockingCardRun(tx: Executor, clientId: number): Promise<string | null> {
  const active = await queryRows(
    tx,
    sql`select j.id, extract(epoch from coalesce(j.started_at, j.created_at))::float8 as started_epoch, (p.id is not null) as autopay,
               (select min(s.autopay_charge_date)::text from statements s
                 where s.client_id = p.client_id and s.production_run_id = p.id) as charge_date
        from job_runs j
        left join production_runs p on p.client_id = j.client_id and p.autopay_job_run_id = j.id
        where j.client_id = ${clientId} and j.kind = ${CARD_RUN_JOB} and j.status in ('queued', 'running')
        order by j.id`,
    activeRunRowSchema,
  );
  const today = businessToday();
  const run = active.find((row) => !row.autopay || row.charge_date === null || row.charge_date <= today);
  if (!run) return null;
  return cardRunInProgressMessage({
    id: run.id,
    source: run.autopay ? "autopay" : "bulk",
    startedAt: timeOfDay(new Date(run.started_epoch * 1000), currentClock().timeZone),
    dueDate: run.charge_date,
  });
}

/**
 * POST make-bulk-payments: charges the selected customers their balances as a job. Every id must be
 * a customer of the tenant's client (another client's id is a 404, like any missing record). One
 * card run of a client at a time: a second start while one is charging (or an autopay run is due
 * today) answers 409 naming it, so a double click or two staff members cannot charge a selection twice.
 */
export async function startBulkCardRun(
  db: Database,
  tenant: TenantContext,
  ids: readonly number[],
  enqueue: EnqueueCardRunChunks,
): Promise<{ job: JobRun }> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const found = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.clientId, tenant.clientId), inArray(customers.id, unique)));
  if (found.length !== unique.length) throw notFound();
  if (!(await clientTakesCardPayments(db, tenant.clientId)))
    throw new HttpError(400, { detail: NO_GATEWAY_KEY_MESSAGE });
  const runId = await db.transaction(async (tx) => {
    // One start at a time per client: two racing starts see each other's run.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('card-run'), ${tenant.clientId}::int)`);
    const blocking = await blockingCardRun(tx, tenant.clientId);
    if (blocking) throw new HttpError(409, { detail: blocking });
    return planCardRun(
      tx,
      {
        clientId: tenant.clientId,
        userId: tenant.user.id,
        source: "bulk",
        items: unique.map((customerId) => ({ customerId })),
      },
      enqueue,
    );
  });
  const row = await readJobRun(db, { clientId: tenant.clientId, runId });
  if (!row) throw new Error("card run not found after its start");
  return { job: jobRunToApi(row) };
}

/** A customer autopay charges: its statement of the run, the amount due and its stored method. */
const autopayDueRowSchema = z.object({
  statement_id: dbInt,
  customer_id: dbInt,
  amount_due: dbDecimal,
  kind: dbText,
  card_type: dbText,
  mask: dbText,
});

/** The client's due days and the production run's date, for the charge date. */
const autopayTermsRowSchema = z.object({ due_days: dbInt, run_date: dbDate });

/**
 * Autopay, once a production run's client part has made its statements (in the transaction of its
 * last step): customers with autopay_flag and a stored method whose statement of this run has an
 * amount due above zero are charged it, as a card run the part records (autopay_job_run_id).
 * The run is planned now and its jobs wait until the charge date the statement announced (the due
 * date, never before the day after the statement: the payment lands in the open period).
 * Nothing starts when the client has no gateway key or nobody is due; a replay starts nothing twice.
 */
export async function startAutopayRun(
  tx: Executor,
  input: { clientId: number; productionRunId: number },
  enqueue: EnqueueCardRunChunks,
): Promise<number | null> {
  const { clientId, productionRunId } = input;
  const [part] = await tx
    .select({ autopay: productionRuns.autopayJobRunId, userId: productionRuns.startedByUserId })
    .from(productionRuns)
    .where(and(eq(productionRuns.clientId, clientId), eq(productionRuns.id, productionRunId)));
  if (!part) throw new Error(`production run ${clientId}/${productionRunId} not found`);
  if (part.autopay !== null) return part.autopay;
  if (!(await clientTakesCardPayments(tx, clientId))) return null;
  const due = await queryRows(
    tx,
    sql`select s.id as statement_id, s.customer_id, s.new_balance::text as amount_due,
               m.kind, m.card_type, m.mask
        from statements s
        join customers c on c.client_id = s.client_id and c.id = s.customer_id
        join customer_payment_methods m on m.client_id = s.client_id and m.customer_id = s.customer_id
        where s.client_id = ${clientId} and s.production_run_id = ${productionRunId}
          and c.autopay_flag and not c.deleted and s.new_balance > 0
        order by s.customer_id`,
    autopayDueRowSchema,
  );
  if (due.length === 0) return null;
  const [terms] = await queryRows(
    tx,
    sql`select c.due_days, p.run_date::text as run_date
        from clients c join production_runs p on p.client_id = c.id and p.id = ${productionRunId}
        where c.id = ${clientId}`,
    autopayTermsRowSchema,
  );
  const chargeDate = autopayChargeDate(
    terms?.run_date ?? businessToday(),
    terms?.due_days ?? DEFAULT_DUE_DAYS,
  );
  // Each statement keeps what it announced (method and date): its pay page shows it as it was.
  await recordAutopayAnnounced(
    tx,
    clientId,
    chargeDate,
    due.map((row) => ({ statementId: row.statement_id, method: paymentMethodLabel(row) })),
  );
  const runId = await planCardRun(
    tx,
    {
      clientId,
      userId: part.userId,
      startAfter: startOfBusinessDay(chargeDate, currentClock().timeZone),
      source: "autopay",
      items: due.map((row) => ({ customerId: row.customer_id, amountDue: row.amount_due })),
    },
    enqueue,
  );
  // The run part records it (production owns production_runs): see finishClientRun.
  return runId;
}

/** The first hour at which the business day (in the provider's time zone) is the given date. */
export function startOfBusinessDay(date: string, timeZone: string): Date {
  const format = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  // From 14 hours before UTC midnight (the earliest zone) forward an hour at a time.
  const start = Date.parse(`${date}T00:00:00Z`) - 14 * 3_600_000;
  for (let hour = 0; hour < 40; hour++) {
    const at = new Date(start + hour * 3_600_000);
    if (format.format(at) >= date) return at;
  }
  return new Date(`${date}T00:00:00Z`);
}
