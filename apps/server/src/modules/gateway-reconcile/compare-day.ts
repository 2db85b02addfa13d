import { sql } from "drizzle-orm";
import {
  NEEDS_CHECKING_AFTER_MS,
  addDays,
  compareAmounts,
  isApprovedSale,
  isValidDecimalString,
  sumAmounts,
  toAmount,
  type DailyReportRecord,
  type ReconciliationDifference,
} from "@cyclebill/domain";
import { z } from "zod";
import { currentClock } from "../../clock.js";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";

// One client's day: BluePay's settlement report of the day against the approved sales the ledger
// holds for it. A sale belongs to day D when the gateway reported it settled on D, or when it was
// approved the day before D and is still not reported settled (BluePay's nightly batch had a full
// day to take it). Differences are listed, never corrected here.

export type DayTotals = { count: number; total: string };
export type DayComparison = {
  gateway: DayTotals;
  ledger: DayTotals;
  differences: ReconciliationDifference[];
};

const attemptMatchRowSchema = z.object({
  id: dbInt,
  customer_id: dbInt,
  kind: dbText,
  status: dbText,
  gateway_trans_id: dbText,
  order_id: dbText,
  amount: dbDecimal,
  transaction_id: dbInt.nullable(),
  entry_amount: dbDecimal.nullable(),
});
type AttemptMatch = z.output<typeof attemptMatchRowSchema>;

const MONEY_OUT_TYPES = new Set(["REFUND", "CREDIT"]);

function amountOf(record: DailyReportRecord): string | null {
  const raw = record.amount.replace(/^-/, "");
  return isValidDecimalString(raw, { allowNegative: false }) ? toAmount(raw) : null;
}

/** Attempts of the client with any of these TRANS_IDs or ORDER_IDs (the bare id before ORDER_IDs had a prefix). */
async function attemptsMatching(
  db: Executor,
  clientId: number,
  transIds: string[],
  orderIds: string[],
): Promise<AttemptMatch[]> {
  if (transIds.length === 0 && orderIds.length === 0) return [];
  const numeric = orderIds.filter((id) => /^\d{1,18}$/.test(id));
  return queryRows(
    db,
    sql`select a.id, a.customer_id, a.kind, a.status, a.gateway_trans_id, a.order_id, a.amount,
               a.transaction_id, t.amount as entry_amount
        from payment_attempts a
        left join transactions t on t.client_id = a.client_id and t.id = a.transaction_id
        where a.client_id = ${clientId}
          and (a.gateway_trans_id = any(${`{${transIds.map(quoted).join(",")}}`}::text[])
               or (a.order_id <> '' and a.order_id = any(${`{${orderIds.map(quoted).join(",")}}`}::text[]))
               or (a.order_id = '' and a.id = any(${`{${numeric.join(",")}}`}::bigint[])))`,
    attemptMatchRowSchema,
  );
}

/** An element of a text[] literal: quoted, with quotes and backslashes escaped. */
function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`;
}

type Matcher = {
  byTrans: (transId: string, kinds: readonly string[]) => AttemptMatch | undefined;
  byOrder: (orderId: string) => AttemptMatch | undefined;
};

function matcherOf(rows: AttemptMatch[]): Matcher {
  return {
    byTrans: (transId, kinds) =>
      rows.find((row) => row.gateway_trans_id === transId && kinds.includes(row.kind)),
    byOrder: (orderId) =>
      orderId === ""
        ? undefined
        : rows.find((row) => row.order_id === orderId || (row.order_id === "" && String(row.id) === orderId)),
  };
}

function difference(
  kind: ReconciliationDifference["kind"],
  record: DailyReportRecord | null,
  attempt: AttemptMatch | undefined,
  detail: string,
): ReconciliationDifference {
  return {
    kind,
    trans_id: record?.transId ?? attempt?.gateway_trans_id ?? "",
    order_id: record?.orderId ?? attempt?.order_id ?? "",
    attempt_id: attempt ? attempt.id : null,
    customer_id: attempt ? attempt.customer_id : null,
    gateway_amount: record ? amountOf(record) : null,
    ledger_amount: attempt?.entry_amount ?? null,
    detail,
  };
}

/** A gateway record against the ledger: null when the ledger holds it with the same amount. */
function checkRecord(
  record: DailyReportRecord,
  matcher: Matcher,
  kinds: readonly string[],
  what: string,
): ReconciliationDifference | null {
  const attempt = matcher.byTrans(record.transId, kinds);
  if (!attempt) {
    const ordered = matcher.byOrder(record.orderId);
    const detail = ordered
      ? `BluePay ${what} ${record.transId} for attempt ${ordered.id}, which the ledger holds as ${ordered.status}${ordered.gateway_trans_id ? ` with ${ordered.gateway_trans_id}` : ""}.`
      : `BluePay ${what} ${record.transId}${record.orderId ? ` (order ${record.orderId})` : ""}, which matches no payment attempt.`;
    return difference("missing_in_ledger", record, ordered, detail);
  }
  if (attempt.status !== "approved" || attempt.transaction_id === null)
    return difference(
      "missing_in_ledger",
      record,
      attempt,
      `BluePay ${what} ${record.transId}; the ledger holds attempt ${attempt.id} as ${attempt.status} with no entry.`,
    );
  const amount = amountOf(record);
  const ledgerAmount = attempt.entry_amount ?? attempt.amount;
  if (amount === null || compareAmounts(amount, ledgerAmount) !== 0)
    return difference(
      "amount_differs",
      record,
      { ...attempt, entry_amount: ledgerAmount },
      `BluePay ${what} ${record.amount || "no amount"}; the ledger holds ${ledgerAmount}.`,
    );
  return null;
}

const ledgerSaleRowSchema = z.object({
  id: dbInt,
  customer_id: dbInt,
  gateway_trans_id: dbText,
  order_id: dbText,
  entry_amount: dbDecimal,
  settled_on: dbDate.nullable(),
});
type LedgerSale = z.output<typeof ledgerSaleRowSchema>;

/** The ledger's sales of the day: settled on it, or approved the day before and not settled since. */
async function ledgerSalesOf(db: Executor, clientId: number, day: string): Promise<LedgerSale[]> {
  const zone = currentClock().timeZone;
  return queryRows(
    db,
    sql`select a.id, a.customer_id, a.gateway_trans_id, a.order_id, t.amount as entry_amount,
               to_char(a.settled_on, 'YYYY-MM-DD') as settled_on
        from payment_attempts a
        join transactions t on t.client_id = a.client_id and t.id = a.transaction_id
        where a.client_id = ${clientId} and a.kind = 'sale' and a.status = 'approved'
          and (a.settled_on = ${day}::date
               or (a.settled_on is null
                   and (a.created_at at time zone ${zone})::date = ${addDays(day, -1)}::date
                   and not exists (select 1 from payment_attempts v
                                   where v.client_id = a.client_id and v.kind = 'void'
                                     and v.status = 'approved' and v.refunds_transaction_id = a.transaction_id)))
        order by a.id`,
    ledgerSaleRowSchema,
  );
}

const unknownAttemptRowSchema = z.object({
  id: dbInt,
  customer_id: dbInt,
  kind: dbText,
  status: dbText,
  amount: dbDecimal,
  order_id: dbText,
  gateway_trans_id: dbText,
});
type UnknownAttempt = z.output<typeof unknownAttemptRowSchema>;

/** Attempts made by the end of the day whose outcome nobody knows: 'unknown', or pending too long. */
async function unknownAttemptsOf(db: Executor, clientId: number, day: string): Promise<UnknownAttempt[]> {
  const zone = currentClock().timeZone;
  const stale = new Date(currentClock().now().getTime() - NEEDS_CHECKING_AFTER_MS);
  return queryRows(
    db,
    sql`select id, customer_id, kind, status, amount, order_id, gateway_trans_id from payment_attempts
        where client_id = ${clientId} and kind in ('sale', 'refund', 'void')
          and (status = 'unknown' or (status = 'pending' and created_at < ${stale.toISOString()}::timestamptz))
          and (created_at at time zone ${zone})::date <= ${day}::date
        order by id`,
    unknownAttemptRowSchema,
  );
}

/**
 * Compares the day: `settled` is the settlement report of the day, `issued` the report of what was
 * issued on it (approved sales not settled yet are checked against the ledger too).
 */
export async function compareDay(
  db: Executor,
  clientId: number,
  day: string,
  settled: readonly DailyReportRecord[],
  issued: readonly DailyReportRecord[],
): Promise<DayComparison> {
  const settledSales = uniqueById(settled.filter((record) => isApprovedSale(record)));
  const settledIds = new Set(settledSales.map((record) => record.transId));
  const issuedSales = uniqueById(issued.filter(isApprovedSale)).filter((r) => !settledIds.has(r.transId));
  const refunds = uniqueById(
    settled.filter(
      (record) =>
        record.status === "1" &&
        MONEY_OUT_TYPES.has(record.transType) &&
        record.origin.toUpperCase() !== "REJECT",
    ),
  );
  const records = [...settledSales, ...issuedSales, ...refunds];
  const matcher = matcherOf(
    await attemptsMatching(
      db,
      clientId,
      records.map((record) => record.transId),
      records.map((record) => record.orderId).filter((id) => id !== ""),
    ),
  );
  const differences: ReconciliationDifference[] = [];
  const push = (found: ReconciliationDifference | null) => found && differences.push(found);
  for (const record of settledSales) push(checkRecord(record, matcher, ["sale"], "settled"));
  for (const record of issuedSales)
    push(checkRecord(record, matcher, ["sale"], "approved (not settled yet)"));
  for (const record of refunds) push(checkRecord(record, matcher, ["refund", "void"], "settled a refund"));

  const ledger = await ledgerSalesOf(db, clientId, day);
  for (const sale of ledger)
    if (!settledIds.has(sale.gateway_trans_id))
      differences.push({
        kind: "missing_at_gateway",
        trans_id: sale.gateway_trans_id,
        order_id: sale.order_id,
        attempt_id: sale.id,
        customer_id: sale.customer_id,
        gateway_amount: null,
        ledger_amount: sale.entry_amount,
        detail:
          sale.settled_on === day
            ? `Recorded as settled on ${day}, but BluePay's settlement report of the day does not list ${sale.gateway_trans_id}.`
            : `Approved on ${addDays(day, -1)}; BluePay's settlement of ${day} does not list ${sale.gateway_trans_id || "it"}.`,
      });
  for (const attempt of await unknownAttemptsOf(db, clientId, day))
    differences.push({
      kind: "unknown_attempt",
      trans_id: attempt.gateway_trans_id,
      order_id: attempt.order_id,
      attempt_id: attempt.id,
      customer_id: attempt.customer_id,
      gateway_amount: null,
      ledger_amount: null,
      detail: `A ${attempt.kind} of ${attempt.amount} whose outcome is unknown (${attempt.status}): look it up at BluePay.`,
    });
  return {
    gateway: {
      count: settledSales.length,
      total: sumAmounts(settledSales.map((record) => amountOf(record) ?? "0")),
    },
    ledger: { count: ledger.length, total: sumAmounts(ledger.map((sale) => sale.entry_amount)) },
    differences,
  };
}

function uniqueById(records: readonly DailyReportRecord[]): DailyReportRecord[] {
  const seen = new Map<string, DailyReportRecord>();
  for (const record of records) if (!seen.has(record.transId)) seen.set(record.transId, record);
  return [...seen.values()];
}
