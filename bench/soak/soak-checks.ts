import { sql } from "drizzle-orm";
import type { SandboxTransaction } from "@cyclebill/gateway-sandbox";
import { gatewayEventSchema, reconciliationSchema } from "@cyclebill/domain";
import { z } from "zod";
import type { Database } from "../../apps/server/src/db/database.js";
import { queryRows } from "../../apps/server/src/db/query-rows.js";
import { dbBool, dbDate, dbDecimal, dbInt, dbText } from "../../apps/server/src/db/row-schemas.js";
import { ledgerMismatches } from "../../apps/server/src/modules/ledger/ledger-mismatches.js";
import type { SequenceContext } from "./soak-operations.js";

// After a sequence: its jobs finished, its pending attempts settled, then the books proven (the
// doctor's ledgerMismatches), every payment attempt held against the sandbox's own book, and the
// production run checked for anything done twice. Each disagreement is one line.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const jobRunRowSchema = z.object({ id: dbInt, kind: dbText, status: dbText, error: dbText.nullable() });

/** Waits for the client's job runs (production, card runs, emails) to end; false after 120 s. */
export async function waitForJobs(db: Database, clientId: number): Promise<string[]> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const runs = await queryRows(
      db,
      sql`select id, kind, status, error from job_runs where client_id = ${clientId}`,
      jobRunRowSchema,
    );
    const open = runs.filter((run) => run.status === "queued" || run.status === "running");
    if (open.length === 0)
      return runs
        .filter((run) => run.status === "failed")
        .map((run) => `job run ${run.id} (${run.kind}) failed: ${run.error ?? ""}`);
    if (Date.now() > deadline)
      return open.map((run) => `job run ${run.id} (${run.kind}) still ${run.status} after 120 s`);
    await sleep(150);
  }
}

const openAttemptRowSchema = z.object({ status: dbText, order_id: dbText, id: dbInt });

/** Settles pending and unknown attempts through the API until none is left (or 30 s pass). */
export async function settleAll(context: SequenceContext, db: Database): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const open = await queryRows(
      db,
      sql`select status, order_id, id from payment_attempts
          where client_id = ${context.client.clientId} and status in ('pending', 'unknown')`,
      openAttemptRowSchema,
    );
    // An unknown attempt the gateway holds no record of stays unknown (for a person): not waited for.
    const sent = new Set(context.cluster.sandbox.transactions().map((t) => t.orderId));
    const waiting = open.filter((a) => a.status === "pending" || sent.has(a.order_id || String(a.id)));
    if (waiting.length === 0) return;
    const base = await context.cluster.apiUrl(0);
    await fetch(new URL("/api/payment-attempts/settle/", base), {
      method: "POST",
      headers: { authorization: `Bearer ${context.client.ownerToken}`, "content-type": "application/json" },
      body: "{}",
    }).catch(() => undefined);
    await sleep(500);
  }
}

const attemptRowSchema = z.object({
  id: dbInt,
  order_id: dbText,
  customer_id: dbInt,
  card_run_id: dbInt.nullable(),
  kind: dbText,
  status: dbText,
  amount: dbDecimal,
  gateway_trans_id: dbText,
  transaction_id: dbInt.nullable(),
});
type AttemptRow = z.output<typeof attemptRowSchema>;

/** A ledger entry carrying a TRANS_ID; an offset voids or reverses another entry. */
const gatewayEntryRowSchema = z.object({ id: dbInt, gateway_trans_id: dbText, offset: dbBool });

/** Every attempt against the sandbox's book of the client's account, and the ledger's card payments. */
async function gatewayMismatches(
  db: Database,
  clientId: number,
  book: SandboxTransaction[],
): Promise<string[]> {
  const problems: string[] = [];
  const attempts = await queryRows(
    db,
    sql`select id, order_id, customer_id, card_run_id, kind, status, amount::text as amount,
               gateway_trans_id, transaction_id
        from payment_attempts where client_id = ${clientId}`,
    attemptRowSchema,
  );
  // Entries a gateway event posted (a return's reversal, a fee, a chargeback reversed) are
  // checked against the sandbox's REJECT records in rejectMismatches, not as payments.
  const entries = await queryRows(
    db,
    sql`select id, gateway_trans_id,
               (voids_transaction_id is not null or reverses_transaction_id is not null) as "offset"
        from transactions t where client_id = ${clientId} and gateway_trans_id is not null
         and not exists (select 1 from gateway_events e where e.client_id = t.client_id
                           and t.id in (e.transaction_id, e.fee_transaction_id))`,
    gatewayEntryRowSchema,
  );
  const orderOf = (attempt: AttemptRow) => attempt.order_id || String(attempt.id);
  const approvedByOrder = new Map<string, SandboxTransaction[]>();
  for (const transaction of book.filter((t) => t.status === "1" && t.origin !== "REJECT")) {
    const list = approvedByOrder.get(transaction.orderId) ?? [];
    list.push(transaction);
    approvedByOrder.set(transaction.orderId, list);
  }
  const attemptIds = new Set(attempts.map(orderOf));
  const sentOrders = new Set(book.filter((t) => t.origin !== "REJECT").map((t) => t.orderId));
  for (const [orderId, list] of approvedByOrder) {
    if (list.length > 1) problems.push(`ORDER_ID ${orderId} approved ${list.length} times at the gateway`);
    if (!attemptIds.has(orderId)) problems.push(`gateway approved ORDER_ID ${orderId}, which no attempt has`);
  }
  for (const attempt of attempts) {
    const charged = approvedByOrder.get(orderOf(attempt)) ?? [];
    const label = `attempt ${attempt.id} (${attempt.kind}, ${attempt.status}, ${attempt.amount})`;
    // An unknown attempt the gateway holds no record of (its request was scrubbed as a duplicate,
    // or never arrived) rightly waits for a person; one the gateway holds should have been found.
    if (attempt.status === "pending" || (attempt.status === "unknown" && sentOrders.has(orderOf(attempt))))
      problems.push(`${label} still ${attempt.status} after settling`);
    else if (attempt.status !== "approved" && charged.length > 0)
      problems.push(`${label} but the gateway approved ${charged.map((t) => t.transId).join(", ")}`);
    else if (attempt.status === "approved") {
      const [sale] = charged;
      if (!sale) problems.push(`${label} but the gateway has no approved transaction for it`);
      else if (sale.amount !== attempt.amount)
        problems.push(`${label} but the gateway charged ${sale.amount}`);
      if (attempt.kind === "sale") {
        const posted = entries.filter((e) => !e.offset && e.gateway_trans_id === attempt.gateway_trans_id);
        if (posted.length !== 1 || posted[0]?.id !== attempt.transaction_id)
          problems.push(
            `${label} posted ${posted.length} payment entries (attempt's entry ${attempt.transaction_id})`,
          );
      }
    }
  }
  const approvedSales = new Set(
    attempts.filter((a) => a.kind === "sale" && a.status === "approved").map((a) => a.gateway_trans_id),
  );
  for (const entry of entries.filter((e) => !e.offset))
    if (!approvedSales.has(entry.gateway_trans_id))
      problems.push(
        `payment entry ${entry.id} carries TRANS_ID ${entry.gateway_trans_id} of no approved sale`,
      );
  problems.push(...doubleCharges(attempts, approvedByOrder, orderOf));
  return problems;
}

/** A customer charged twice for one intent: two sales approved at the gateway in one card run. */
function doubleCharges(
  attempts: AttemptRow[],
  approvedByOrder: Map<string, SandboxTransaction[]>,
  orderOf: (attempt: AttemptRow) => string,
): string[] {
  const perRun = new Map<string, number>();
  for (const attempt of attempts) {
    if (attempt.kind !== "sale" || attempt.card_run_id === null) continue;
    if (!approvedByOrder.has(orderOf(attempt))) continue;
    const key = `${attempt.card_run_id}:${attempt.customer_id}`;
    perRun.set(key, (perRun.get(key) ?? 0) + 1);
  }
  return [...perRun]
    .filter(([, count]) => count > 1)
    .map(([key, count]) => `double charge: card run:customer ${key} approved ${count} times at the gateway`);
}

/** A return or chargeback event, and whether staff had already refunded its payment. */
const rejectEventRowSchema = gatewayEventSchema
  .pick({ kind: true, gateway_trans_id: true })
  .extend({ transaction_id: dbInt.nullable(), refunded: dbBool });

/**
 * Every return and chargeback the sandbox holds reached the books once (read by the day's
 * reconciliation): its sale is marked returned or charged back and a gateway event posted it.
 */
async function rejectMismatches(
  db: Database,
  clientId: number,
  book: SandboxTransaction[],
): Promise<string[]> {
  // A return of a payment staff had already refunded is recorded and posts nothing (left to a person).
  const events = await queryRows(
    db,
    sql`select e.kind, e.gateway_trans_id, e.transaction_id,
               exists (select 1 from payment_attempts r where r.client_id = e.client_id
                        and r.kind in ('refund', 'void') and r.status = 'approved'
                        and r.master_id = e.original_trans_id) as refunded
        from gateway_events e where e.client_id = ${clientId}`,
    rejectEventRowSchema,
  );
  const problems: string[] = [];
  for (const reject of book.filter((t) => t.origin === "REJECT")) {
    const kind =
      reject.rejectKind === "return"
        ? "returned"
        : reject.rejectKind === "chargeback"
          ? "charged_back"
          : reject.rejectKind === "chargeback-reversal"
            ? "chargeback_reversed"
            : null;
    if (!kind) continue;
    const posted = events.filter((e) => e.kind === kind && e.gateway_trans_id === reject.transId);
    if (posted.length !== 1 || (posted[0]?.transaction_id === null && !posted[0].refunded))
      problems.push(
        `${kind} ${reject.transId} of sale ${reject.masterId} (${reject.rejectCode}) posted ${posted.length} times`,
      );
  }
  return problems;
}

const todayRowSchema = z.object({ day: dbDate });
const differencesRowSchema = reconciliationSchema.pick({ differences: true });

/** The day's reconciliation through the API (as an admin runs it): its differences, once done. */
async function reconcileToday(context: SequenceContext, db: Database): Promise<string[]> {
  const clientId = context.client.clientId;
  const [today] = await queryRows(db, sql`select current_date::text as day`, todayRowSchema);
  const day = today?.day ?? new Date().toISOString().slice(0, 10);
  const base = await context.cluster.apiUrl(0);
  const started = await fetch(new URL(`/api/gateway/reconcile/?client_id=${clientId}&date=${day}`, base), {
    method: "POST",
    headers: { authorization: `Bearer ${context.adminToken}` },
  }).catch(() => null);
  if (started?.status !== 202) return [`reconcile of ${day} answered ${started?.status ?? "nothing"}`];
  const failed = await waitForJobs(db, clientId);
  const [row] = await queryRows(
    db,
    sql`select differences from gateway_reconciliations where client_id = ${clientId} and day = ${day}`,
    differencesRowSchema,
  );
  if (!row) return [...failed, `no reconciliation of ${day}`];
  // An unknown attempt the gateway holds no record of (a process killed between saving it and
  // sending it) is rightly listed for a person; the attempt check counts it instead.
  const leftForAPerson = await unknownWithoutRecord(context, db);
  return [
    ...failed,
    ...row.differences
      .filter(
        (d) => !(d.kind === "unknown_attempt" && d.attempt_id !== null && leftForAPerson.has(d.attempt_id)),
      )
      .map((d) => `doctor --gateway: ${d.kind} ${d.trans_id}: ${d.detail}`),
  ];
}

const unknownAttemptRowSchema = z.object({ id: dbInt, order_id: dbText });

/** The client's unknown attempts whose ORDER_ID the sandbox never received. */
async function unknownWithoutRecord(context: SequenceContext, db: Database): Promise<Set<number>> {
  const sent = new Set(context.cluster.sandbox.transactions().map((t) => t.orderId));
  const unknown = await queryRows(
    db,
    sql`select id, order_id from payment_attempts
        where client_id = ${context.client.clientId} and status = 'unknown'`,
    unknownAttemptRowSchema,
  );
  return new Set(unknown.filter((a) => !sent.has(a.order_id || String(a.id))).map((a) => a.id));
}

/** A customer's entries of one kind (a statement, a recurring charge, a late fee) for one day. */
const doneTwiceRowSchema = z.object({ what: dbText, customer_id: dbInt, day: dbDate, n: dbInt });

/** Anything a production run may do once per customer and period, done twice. */
async function doneTwice(db: Database, clientId: number): Promise<string[]> {
  const rows = await queryRows(
    db,
    sql`select 'statement' as what, customer_id, statement_date::text as day, count(*)::int as n
          from statements where client_id = ${clientId} group by customer_id, statement_date having count(*) > 1
        union all
        select transaction_type, customer_id, service_date::text, count(*)::int
          from transactions where client_id = ${clientId} and transaction_type in ('recurring', 'late_fee')
           and voids_transaction_id is null and reverses_transaction_id is null
          group by transaction_type, customer_id, service_date having count(*) > 1`,
    doneTwiceRowSchema,
  );
  return rows.map((row) => `customer ${row.customer_id} has ${row.n} ${row.what} entries for ${row.day}`);
}

export type SequenceCheck = {
  problems: string[];
  attempts: number;
  approved: number;
  /** Unknown attempts the gateway holds no record of: left for a person (the needs-checking list). */
  unknown: number;
  waitedMs: number;
};

const tallyRowSchema = z.object({ attempts: dbInt, approved: dbInt, unknown: dbInt });

export async function checkSequence(context: SequenceContext, db: Database): Promise<SequenceCheck> {
  const started = Date.now();
  const { clientId, accountId } = context.client;
  const problems = await waitForJobs(db, clientId);
  await settleAll(context, db);
  // Everything approved is settled at the gateway today, then the day is reconciled: returns and
  // chargebacks reach the books there, and the comparison must find no difference.
  context.cluster.sandbox.settleAll();
  const differences = await reconcileToday(context, db);
  const waitedMs = Date.now() - started;
  const ledger = await ledgerMismatches(db, { clientId });
  for (const m of ledger)
    problems.push(
      `doctor: customer ${m.customerId} balance ${m.totalBalance} vs ledger ${m.ledgerSum}; entries ${m.ledgerEntries} vs ${m.entryCount}`,
    );
  const book = context.cluster.sandbox.transactions().filter((t) => t.accountId === accountId);
  problems.push(...(await gatewayMismatches(db, clientId, book)));
  problems.push(...(await rejectMismatches(db, clientId, book)));
  problems.push(...differences);
  problems.push(...(await doneTwice(db, clientId)));
  const [tally] = await queryRows(
    db,
    sql`select count(*)::int as attempts, count(*) filter (where status = 'approved')::int as approved,
               count(*) filter (where status = 'unknown')::int as unknown
        from payment_attempts where client_id = ${clientId}`,
    tallyRowSchema,
  );
  return {
    problems,
    attempts: tally?.attempts ?? 0,
    approved: tally?.approved ?? 0,
    unknown: tally?.unknown ?? 0,
    waitedMs,
  };
}
