import { and, eq, sql } from "drizzle-orm";
import {
  DUPLICATE_TRANSACTION_MESSAGE,
  batchDuplicateMessage,
  multiplyRateByQuantity,
  toQuantity,
  toRate,
  type transactionBatchSchema,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { routes } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { HttpError, fieldError, notFound } from "../../http/errors.js";
import { businessToday } from "../../clock.js";
import { moneyTransaction } from "../ledger/money-transaction.js";
import { postEntries } from "../ledger/post-entries.js";
import { lockCustomers } from "../ledger/lock-customers.js";
import { postingRefusal, type RefusalReason } from "../ledger/posting-rules.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { assertUnitOfMeasure, clientCode } from "../tenancy/tenant-refs.js";
import { recentDuplicates } from "./recent-duplicates.js";

export type BatchResult = {
  count: number;
  total: string;
  transaction_type: "route" | "bulk";
  description: string;
  route_name: string | null;
  /** How many customers were left out (refused by the posting rules). */
  skipped: number;
  /** Every customer left out, by name, with the reason. */
  refused: BatchRefusal[];
};

export type BatchRefusal = {
  customer: number;
  customer_no: number;
  customer_name: string;
  reason: RefusalReason;
};

/** A customer the batch posts to. */
const batchTargetRowSchema = z.object({ id: dbInt, customer_no: dbInt, customer_name: dbText });

/**
 * Posts one entry to each customer of a group (route: members with processing type standard)
 * or of the client (bulk) through the ledger writer, set-based and in one database transaction:
 * the whole batch or nothing.
 */
export async function postBatch(
  db: Database,
  tenant: TenantContext,
  input: z.output<typeof transactionBatchSchema>,
): Promise<BatchResult> {
  const code = await clientCode(db, tenant.clientId, input.code as number);
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
  if (input.unitofmeasure !== 1) await assertUnitOfMeasure(db, input.unitofmeasure);
  await assertOwnCustomers(db, tenant, [
    ...(input.customers ?? []),
    ...(input.customer_amounts ?? []).map((entry) => entry.customer),
  ]);
  const defaultPrice = priceOf(input.amount, input.quantity);
  // Rows the screen priced one by one; everyone else takes the batch's amount and quantity.
  const prices = new Map(
    (input.customer_amounts ?? []).map((entry) => [
      entry.customer,
      priceOf(entry.amount, entry.quantity ?? input.quantity),
    ]),
  );
  const serviceDate = input.service_date ?? businessToday();
  const description = input.description ?? code.description;
  const chosen =
    input.customers === undefined
      ? sql`true`
      : input.customers.length === 0
        ? sql`false`
        : // One array parameter, however many customers (a parameter each would pass 65,535).
          sql`c.id = any(${sqlArray(input.customers, "bigint")})`;
  const membership =
    input.transaction_type === "route"
      ? sql`and exists (select 1 from route_plans rp where rp.client_id = c.client_id and rp.customer_id = c.id
                        and rp.route_id = ${input.route} and rp.bill_indicator_flag = 'standard')`
      : sql``;

  return moneyTransaction(db, async (tx) => {
    // Archived customers named by the screen or members of the group go to the ledger writer too,
    // so it refuses them with a reason the result names; "all customers" means the active ones.
    const active =
      input.transaction_type === "bulk" && input.customers === undefined ? sql`and not c.deleted` : sql``;
    const targets = await queryRows(
      tx,
      sql`select c.id, c.customer_no, c.customer_name from customers c
          where c.client_id = ${tenant.clientId} ${active} and ${chosen} ${membership}
          order by c.id`,
      batchTargetRowSchema,
    );
    const entries = targets.map((target) => {
      const id = target.id;
      const price = prices.get(id) ?? defaultPrice;
      return { id, price, amount: multiplyRateByQuantity(price.rate, price.quantity) };
    });
    if (!input.force) {
      // The single add's duplicate rule, for each customer the batch would post to: under their
      // locks (id order, as the ledger writer takes them), so a second press sent at once waits
      // for the first and then sees its entries.
      const locked = await lockCustomers(
        tx,
        tenant.clientId,
        entries.map((entry) => entry.id),
      );
      const twins = await recentDuplicates(
        tx,
        tenant.clientId,
        { codeId: code.id, serviceDate },
        entries
          .filter((entry) => postingRefusal(locked.get(entry.id), code.codeType) === null)
          .map((entry) => ({ customerId: entry.id, amount: entry.amount })),
      );
      if (twins.size > 0) throw duplicateBatchError(targets.filter((target) => twins.has(target.id)));
    }
    // The ledger writer locks them (id order) and leaves out whoever may not take the entry now.
    const posted = await postEntries(
      tx,
      tenant,
      entries.map(({ id, price }) => {
        return {
          customerId: id,
          codeId: code.id,
          codeType: code.codeType,
          description,
          rate: price.rate,
          quantity: price.quantity,
          serviceDate,
          datedToday: input.service_date === undefined,
          unitOfMeasureId: input.unitofmeasure,
          transactionType: input.transaction_type,
          createdByUserId: tenant.user.id,
        };
      }),
      "skip",
    );
    return {
      count: targets.length - posted.refused.length,
      total: posted.total,
      transaction_type: input.transaction_type,
      description,
      route_name: routeName,
      skipped: posted.refused.length,
      refused: posted.refused.map(({ index, reason }) => {
        const target = targets[index];
        return {
          customer: Number(target?.id),
          customer_no: Number(target?.customer_no),
          customer_name: target?.customer_name ?? "",
          reason,
        };
      }),
    };
  });
}

/**
 * 400 in DRF's shape: the spec's duplicate text first (the screens ask before forcing), then who,
 * and the customers as records.
 */
function duplicateBatchError(customers: readonly z.output<typeof batchTargetRowSchema>[]): HttpError {
  const names = customers.map((customer) => `${customer.customer_no} ${customer.customer_name}`);
  return new HttpError(400, {
    non_field_errors: [DUPLICATE_TRANSACTION_MESSAGE, batchDuplicateMessage(names)],
    duplicates: customers.map((customer) => ({
      customer: customer.id,
      customer_no: customer.customer_no,
      customer_name: customer.customer_name,
    })),
  });
}

/** How many of the named customers are the client's. */
const ownCustomerCountRowSchema = z.object({ count: dbInt });

/**
 * Every customer the batch names must be one of the client's (archived ones included: the ledger
 * writer refuses those with a reason). Another client's id, or no customer's, answers 404 as a
 * foreign id does everywhere else, and nothing is posted.
 */
async function assertOwnCustomers(db: Database, tenant: TenantContext, named: number[]): Promise<void> {
  const distinct = [...new Set(named)];
  if (distinct.length === 0) return;
  const [found] = await queryRows(
    db,
    sql`select count(*) as count from customers
        where client_id = ${tenant.clientId} and id = any(${sqlArray(distinct, "bigint")})`,
    ownCustomerCountRowSchema,
  );
  if (found?.count !== distinct.length) throw notFound();
}

/** Rate and quantity of a batch row, normalised. */
function priceOf(amountInput: string, quantityInput: string) {
  return { rate: toRate(amountInput), quantity: toQuantity(quantityInput) };
}
