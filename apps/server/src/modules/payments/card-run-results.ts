import { sql } from "drizzle-orm";
import {
  PAYMENT_ATTEMPT_STATUSES,
  resolvePaging,
  type BulkPaymentResult,
  type CardRun,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import type { TenantContext } from "../../http/auth-context.js";
import { notFound } from "../../http/errors.js";
import { getJobRun } from "../jobs/job-runs.js";
import { PENDING_ANSWER_MESSAGE } from "./send-attempt.js";
import { CARD_RUN_JOB } from "./start-card-run.js";

/** Results a page, unless limit says otherwise (Process CC shows a whole run at once). */
export const CARD_RUN_RESULTS_PAGE_SIZE = 500;

const resultRowSchema = z.object({
  customer_id: dbInt,
  customer_no: dbInt,
  name1: dbText,
  name2: dbText,
  amount: dbDecimal,
  status: z.enum(PAYMENT_ATTEMPT_STATUSES),
  message: dbText,
  total_balance: dbDecimal,
});

const totalsRowSchema = z.object({
  approved_count: dbInt,
  approved_total: dbDecimal.nullable(),
  declined_count: dbInt,
  pending_count: dbInt,
  count: dbInt,
});

/** A production run whose autopay is this card run. */
const autopayPartRowSchema = z.object({ id: dbInt });

/**
 * GET card-runs/{id}: the run's job (progress), counts and total approved, and its results so far,
 * one line per customer by customer number (paged by limit/offset). Another client's
 * run, or a job run of another kind, is a 404.
 */
export async function getCardRun(
  db: Executor,
  tenant: TenantContext,
  id: number,
  paging: { limit?: number; offset?: number; page?: number },
): Promise<CardRun> {
  const job = await getJobRun(db, tenant, id);
  if (job.kind !== CARD_RUN_JOB) throw notFound();
  const { limit, offset } = resolvePaging({ ...paging, limit: paging.limit ?? CARD_RUN_RESULTS_PAGE_SIZE });
  // Each customer's last attempt of the run: an earlier one the gateway never got is not the result.
  const latest = sql`(select distinct on (customer_id) * from payment_attempts
      where client_id = ${tenant.clientId} and card_run_id = ${id}
      order by customer_id, id desc) a`;
  const [totals, rows, autopay] = await Promise.all([
    queryRows(
      db,
      sql`select count(*) filter (where a.status = 'approved')::int as approved_count,
                 (sum(a.amount) filter (where a.status = 'approved'))::text as approved_total,
                 count(*) filter (where a.status in ('declined', 'error', 'duplicate'))::int as declined_count,
                 count(*) filter (where a.status in ('pending', 'unknown'))::int as pending_count,
                 count(*)::int as count
          from ${latest}`,
      totalsRowSchema,
    ),
    queryRows(
      db,
      // A company customer has no first or last name: its result shows the company (or account) name.
      sql`select a.customer_id, c.customer_no,
                 coalesce(nullif(a.name1, ''), nullif(c.company_name, ''), c.customer_name) as name1, a.name2,
                 a.amount::text as amount, a.status, a.message,
                 c.total_balance::text as total_balance
          from ${latest}
          join customers c on c.client_id = a.client_id and c.id = a.customer_id
          order by c.customer_no, a.customer_id
          limit ${limit} offset ${offset}`,
      resultRowSchema,
    ),
    queryRows(
      db,
      sql`select id from production_runs where client_id = ${tenant.clientId} and autopay_job_run_id = ${id} limit 1`,
      autopayPartRowSchema,
    ),
  ]);
  const total = totals[0];
  return {
    job,
    source: autopay.length > 0 ? "autopay" : "bulk",
    approved_count: total?.approved_count ?? 0,
    approved_total: total?.approved_total ?? "0.00",
    declined_count: total?.declined_count ?? 0,
    pending_count: total?.pending_count ?? 0,
    count: total?.count ?? 0,
    paymentResults: rows.map((row): BulkPaymentResult => ({
      customer_id: row.customer_id,
      customer_no: row.customer_no,
      name1: row.name1,
      name2: row.name2,
      amount_response: row.amount,
      message_response: row.status === "pending" && row.message === "" ? PENDING_ANSWER_MESSAGE : row.message,
      approved: row.status === "approved",
      status: row.status,
      account_balance: row.total_balance,
    })),
  };
}
