import { and, eq, sql } from "drizzle-orm";
import {
  ledgerAmount,
  monthToDateBucket,
  multiplyRateByQuantity,
  sumAmounts,
  toQuantity,
  toRate,
  type CodeType,
  type transactionBatchSchema,
} from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { codes, routes, unitsOfMeasure } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError } from "../../http/errors.js";

export type BatchResult = {
  count: number;
  total: string;
  transaction_type: "route" | "bulk";
  description: string;
  route_name: string | null;
  /** Customers left out because they are marked for deletion and the code is a charge. */
  skipped: number;
};

const mtdColumnName = {
  charges: "mtd_charges",
  payments: "mtd_payments",
  credit_adjustments: "mtd_cr_adj",
  debit_adjustments: "mtd_db_adj",
} as const;

/**
 * Posts one entry to each customer of a group (route: members with processing type standard)
 * or of the client (bulk), set-based and in one database transaction: the whole batch or nothing.
 * Balances and month-to-date figures move in the same transaction, as for single postings.
 */
export async function postBatch(
  db: Database,
  tenant: TenantContext,
  input: z.output<typeof transactionBatchSchema>,
): Promise<BatchResult> {
  const [code] = await db
    .select()
    .from(codes)
    .where(and(eq(codes.clientId, tenant.clientId), eq(codes.id, input.code as number)))
    .limit(1);
  if (!code) throw fieldError("code", "Invalid code - object does not exist.");
  let routeName: string | null = null;
  if (input.transaction_type === "route") {
    if (!input.route)
      throw fieldError("route", "No group selected. Please select a group before adding the customer.");
    const [group] = await db
      .select({ name: routes.routeName })
      .from(routes)
      .where(and(eq(routes.clientId, tenant.clientId), eq(routes.id, input.route)))
      .limit(1);
    if (!group) throw fieldError("route", "Invalid group - object does not exist.");
    routeName = group.name;
  }
  if (input.unitofmeasure !== 1) {
    const [unit] = await db
      .select({ id: unitsOfMeasure.id })
      .from(unitsOfMeasure)
      .where(eq(unitsOfMeasure.id, input.unitofmeasure))
      .limit(1);
    if (!unit) throw fieldError("unitofmeasure", "Invalid unit of measure - object does not exist.");
  }
  const defaultPrice = priceOf(code.codeType, input.amount, input.quantity);
  // Rows the screen priced one by one; everyone else takes the batch's amount and quantity.
  const prices = new Map(
    (input.customer_amounts ?? []).map((entry) => [
      entry.customer,
      priceOf(code.codeType, entry.amount, entry.quantity ?? input.quantity),
    ]),
  );
  const serviceDate = input.service_date ?? new Date().toISOString().slice(0, 10);
  const description = input.description ?? code.description;
  const chosen =
    input.customers === undefined
      ? sql`true`
      : input.customers.length === 0
        ? sql`false`
        : // One array parameter, however many customers (a parameter each would pass 65,535).
          sql`c.id = any(${arrayLiteral(input.customers)}::bigint[])`;
  const membership =
    input.transaction_type === "route"
      ? sql`and exists (select 1 from route_plans rp where rp.client_id = c.client_id and rp.customer_id = c.id
                        and rp.route_id = ${input.route} and rp.bill_indicator_flag = 'standard')`
      : sql``;
  const bucket = monthToDateBucket(code.codeType);

  return db.transaction(async (tx) => {
    // Lock the customers in id order: the same order single postings and other batches use.
    const targets = await queryRows<{ id: number | string; delete_flag: string | null }>(
      tx,
      sql`select c.id, c.delete_flag from customers c
          where c.client_id = ${tenant.clientId} and not c.deleted and ${chosen} ${membership}
          order by c.id for update`,
    );
    const eligible = targets.filter((target) => code.codeType !== "charge" || target.delete_flag === null);
    const ids = eligible.map((target) => Number(target.id));
    if (ids.length === 0) {
      return {
        count: 0,
        total: "0.00",
        transaction_type: input.transaction_type,
        description,
        route_name: routeName,
        skipped: targets.length,
      };
    }
    const priced = ids.map((id) => ({ id, ...(prices.get(id) ?? defaultPrice) }));
    // Five array parameters whatever the batch size (a parameter per value would pass PostgreSQL's
    // 65,535-parameter limit on large clients).
    const idArray = arrayLiteral(ids);
    const rows = sql`unnest(${idArray}::bigint[], ${arrayLiteral(priced.map((row) => row.rate))}::numeric[],
      ${arrayLiteral(priced.map((row) => row.quantity))}::numeric[], ${arrayLiteral(priced.map((row) => row.amount))}::numeric[],
      ${arrayLiteral(priced.map((row) => row.signed))}::numeric[]) as t(id, rate, quantity, amount, signed)`;
    await tx.execute(sql`
      insert into transactions (client_id, customer_id, code_id, description, quantity, rate, amount, ledger_amount,
                                service_date, unit_of_measure_id, transaction_type, created_by_user_id)
      select ${tenant.clientId}::bigint, t.id, ${code.id}::bigint, ${description}, t.quantity, t.rate,
             t.amount, t.signed, ${serviceDate}::date, ${input.unitofmeasure}::bigint, ${input.transaction_type},
             ${tenant.user.id}::bigint
      from ${rows}`);
    const bucketUpdate = bucket
      ? sql`, ${sql.raw(mtdColumnName[bucket])} = ${sql.raw(mtdColumnName[bucket])} + t.amount`
      : sql``;
    const payDate =
      code.codeType === "payment"
        ? sql`, last_pay_date = greatest(last_pay_date, ${serviceDate}::date)`
        : sql``;
    await tx.execute(sql`
      update customers set total_balance = total_balance + t.signed, ledger_entries = ledger_entries + 1,
        ledger_amount_total = ledger_amount_total + t.amount, updated_at = now() ${bucketUpdate} ${payDate}
      from ${rows}
      where customers.client_id = ${tenant.clientId} and customers.id = t.id`);
    // Customers marked for deletion are archived when a payment or credit brings them to zero.
    await tx.execute(sql`
      update customers set deleted = true, deleted_at = now()
      where client_id = ${tenant.clientId} and delete_flag is not null and total_balance = 0
        and id = any(${idArray}::bigint[])`);
    const total = sumAmounts(priced.map((row) => row.amount));
    return {
      count: ids.length,
      total,
      transaction_type: input.transaction_type,
      description,
      route_name: routeName,
      skipped: targets.length - ids.length,
    };
  });
}

/** Rate, quantity, amount (rate × quantity, 2 places) and its signed effect on the balance. */
function priceOf(codeType: CodeType, amountInput: string, quantityInput: string) {
  const rate = toRate(amountInput);
  const quantity = toQuantity(quantityInput);
  const amount = multiplyRateByQuantity(rate, quantity);
  return { rate, quantity, amount, signed: ledgerAmount(codeType, amount) };
}

/** A PostgreSQL array literal of integers or decimal strings (both already validated: no quoting needed). */
function arrayLiteral(values: readonly (number | string)[]): string {
  return `{${values.join(",")}}`;
}
