import { sql, type SQL } from "drizzle-orm";
import {
  CREDIT_CARD_CUSTOMERS_PAGE_SIZE,
  creditCardCustomerSchema,
  parseOrdering,
  resolvePaging,
  storedMethodSchema,
  type CreditCardCustomer,
  type CreditCardCustomersQuery,
  type Page,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt } from "../../db/row-schemas.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError } from "../../http/errors.js";

// Process CC's list: the client's customers with a stored payment method and their balances.

const orderingColumns = {
  id: sql`c.id`,
  customer_no: sql`c.customer_no`,
  customer_name: sql`c.customer_name`,
  first_name: sql`c.first_name`,
  last_name: sql`c.last_name`,
  company_name: sql`c.company_name`,
  total_balance: sql`c.total_balance`,
  balance: sql`c.total_balance`,
  last_pay_date: sql`c.last_pay_date`,
  autopay_flag: sql`c.autopay_flag`,
  card_type: sql`m.card_type`,
} as const;

/** A customer as the list's query returns it: the API's row with its stored method's columns flat. */
const rowSchema = creditCardCustomerSchema.omit({ stored_method: true }).extend({
  ...storedMethodSchema.shape,
  id: dbInt,
  client_id: dbInt,
  customer_no: dbInt,
  total_balance: dbDecimal,
  last_pay_date: dbDate.nullable(),
});

const totalRowSchema = z.object({ total: dbInt });

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (match) => `\\${match}`);
}

/**
 * Customers (not archived) with a stored method, 500 a page unless limit says otherwise. query
 * matches number and names (the customer's search column); has_pending_charges true keeps those
 * with a balance above zero, false those with none.
 */
export async function listCreditCardCustomers(
  db: Executor,
  tenant: TenantContext,
  query: CreditCardCustomersQuery,
): Promise<Page<CreditCardCustomer>> {
  const ordering = parseOrdering(query.ordering ?? "customer_no", Object.keys(orderingColumns));
  if (!ordering.ok)
    throw fieldError(
      "ordering",
      `Unknown ordering field: ${ordering.unknown.join(", ")}. Allowed: ${Object.keys(orderingColumns).join(", ")}.`,
    );
  const conditions: SQL[] = [sql`c.client_id = ${tenant.clientId}`, sql`not c.deleted`];
  const text = query.query?.trim().toLowerCase();
  if (text) conditions.push(sql`c.search_text like ${`%${escapeLike(text)}%`}`);
  if (query.has_pending_charges === true) conditions.push(sql`c.total_balance > 0`);
  if (query.has_pending_charges === false) conditions.push(sql`c.total_balance <= 0`);
  const where = sql.join(conditions, sql` and `);
  const orderBy = sql.join(
    [
      ...ordering.terms.map((term) => {
        const column = orderingColumns[term.field as keyof typeof orderingColumns];
        return term.descending ? sql`${column} desc` : sql`${column} asc`;
      }),
      // The id breaks ties so that pages never repeat or skip a row.
      sql`c.id asc`,
    ],
    sql`, `,
  );
  const { limit, offset } = resolvePaging({
    ...query,
    limit: query.limit ?? CREDIT_CARD_CUSTOMERS_PAGE_SIZE,
  });
  const from = sql`from customers c
    join customer_payment_methods m on m.client_id = c.client_id and m.customer_id = c.id
    where ${where}`;
  const [rows, totals] = await Promise.all([
    queryRows(
      db,
      sql`select c.id, c.client_id, c.customer_no, c.customer_name, c.first_name, c.last_name, c.company_name,
                 c.total_balance::text as total_balance, c.last_pay_date::text as last_pay_date, c.autopay_flag,
                 c.bluepay_transaction_message, m.kind, m.mask, m.card_type, m.expiry,
                 to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as stored_at
          ${from}
          order by ${orderBy}
          limit ${limit} offset ${offset}`,
      rowSchema,
    ),
    queryRows(db, sql`select count(*) as total ${from}`, totalRowSchema),
  ]);
  return {
    count: totals[0]?.total ?? 0,
    results: rows.map((row) => ({
      id: row.id,
      client_id: row.client_id,
      customer_no: row.customer_no,
      customer_name: row.customer_name,
      first_name: row.first_name,
      last_name: row.last_name,
      company_name: row.company_name,
      total_balance: row.total_balance,
      last_pay_date: row.last_pay_date,
      autopay_flag: row.autopay_flag,
      bluepay_transaction_message: row.bluepay_transaction_message,
      stored_method: {
        kind: row.kind,
        mask: row.mask,
        card_type: row.card_type,
        expiry: row.expiry,
        stored_at: row.stored_at,
      },
    })),
  };
}
