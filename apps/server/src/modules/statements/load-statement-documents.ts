import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { autopayChargeDate, paymentMethodLabel, statementPayLink } from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbInt } from "../../db/row-schemas.js";
import { codes, customerPaymentMethods, customers, statements, transactions } from "../../db/tables.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { type BillClient, type BillLine } from "../invoices/bill-layout.pdf.js";
import { billCustomer, loadBillClient } from "../invoices/bill-parties.js";
import type { StatementDocument, StatementFigures } from "./statement-page.pdf.js";
import { billLineColumns, offsetJoins, toBillLine } from "../invoices/bill-line-columns.js";
import { clientTakesCardPayments } from "../payments/card-payments-taken.js";

/** A statement's id with the date of the customer's statement before it (null: its first). */
const previousDateRowSchema = z.object({ id: dbInt, previous: dbDate.nullable() });

/** A statement ready to draw, with what its pool's manifest and its email need beside it. */
export type LoadedStatement = {
  id: number;
  customerId: number;
  email: string;
  /** The customer's pull explanation code (0 not set, 1 send with reports, 2 insert, 3 special handling). */
  pullExplanation: string;
  document: StatementDocument;
};

/** Only what the page prints: the document travels to a PDF worker thread. */
function statementFiguresOf(row: typeof statements.$inferSelect): StatementFigures {
  return {
    statementNum: row.statementNum,
    statementDate: row.statementDate,
    previousBalance: row.previousBalance,
    charges: row.charges,
    payments: row.payments,
    creditAdjustments: row.creditAdjustments,
    debitAdjustments: row.debitAdjustments,
    lateFees: row.lateFees,
    newBalance: row.newBalance,
    currentBalance: row.currentBalance,
    overdue30Days: row.overdue30Days,
    overdue60Days: row.overdue60Days,
    overdue90Days: row.overdue90Days,
    overdueOver90Days: row.overdueOver90Days,
  };
}

function dayAfter(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * The client's statements with these ids, in the order asked (ids not the client's are left out),
 * in three queries however many: the statements with their customers, each one's previous
 * statement date, and every entry they carried. With a public URL, each prints its pay link.
 */
export async function loadStatementDocuments(
  db: Executor,
  clientId: number,
  ids: readonly number[],
  options: { publicUrl?: string; client?: BillClient } = {},
): Promise<LoadedStatement[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await db
    .select({ statement: statements, customer: customers })
    .from(statements)
    .innerJoin(
      customers,
      and(eq(customers.clientId, statements.clientId), eq(customers.id, statements.customerId)),
    )
    .where(and(eq(statements.clientId, clientId), inArray(statements.id, unique)));
  if (rows.length === 0) return [];
  const client = options.client ?? (await loadBillClient(db, clientId));
  const previous = await queryRows(
    db,
    // The customer's statement before it: the current versions only (a corrected version's original
    // has its date and is not its previous statement).
    sql`select s.id, (select max(p.statement_date)::text from statements p
                      where p.client_id = s.client_id and p.customer_id = s.customer_id and p.replaced_by_id is null
                        and (p.statement_date < s.statement_date
                             or (p.statement_date = s.statement_date and p.id < s.id and s.version = 1))) as previous
        from statements s
        where s.client_id = ${clientId} and s.id = any(${sqlArray(unique, "bigint")})`,
    previousDateRowSchema,
  );
  const previousOf = new Map(previous.map((row) => [row.id, row.previous]));
  const lineRows = await db
    .select({ statementId: transactions.statementId, ...billLineColumns })
    .from(transactions)
    .innerJoin(codes, and(eq(codes.clientId, transactions.clientId), eq(codes.id, transactions.codeId)))
    .leftJoin(...offsetJoins.target)
    .leftJoin(...offsetJoins.code)
    .where(and(eq(transactions.clientId, clientId), inArray(transactions.statementId, unique)))
    .orderBy(asc(transactions.statementId), asc(transactions.serviceDate), asc(transactions.id));
  const linesOf = new Map<number, BillLine[]>();
  for (const { statementId, ...line } of lineRows) {
    const key = Number(statementId);
    const list = linesOf.get(key);
    if (list) list.push(toBillLine(line));
    else linesOf.set(key, [toBillLine(line)]);
  }
  // A client that takes no card payments prints no pay link, and charges no autopay.
  const takesCards = await clientTakesCardPayments(db, clientId);
  // Autopay customers with a stored method, of a client that can charge them: their statements
  // announce the charge instead of asking to be paid (the card run charges on that day).
  const autopayIds = rows.filter((row) => row.customer.autopayFlag).map((row) => row.customer.id);
  const methodOf = new Map<number, string>();
  if (autopayIds.length > 0 && takesCards) {
    const methods = await db
      .select()
      .from(customerPaymentMethods)
      .where(
        and(
          eq(customerPaymentMethods.clientId, clientId),
          inArray(customerPaymentMethods.customerId, autopayIds),
        ),
      );
    for (const method of methods)
      methodOf.set(
        method.customerId,
        paymentMethodLabel({ kind: method.kind, card_type: method.cardType, mask: method.mask }),
      );
  }
  const byId = new Map(rows.map((row) => [row.statement.id, row]));
  const loaded: LoadedStatement[] = [];
  for (const id of unique) {
    const row = byId.get(id);
    if (!row) continue;
    const { statement, customer } = row;
    const before = previousOf.get(id) ?? null;
    const method = methodOf.get(customer.id);
    loaded.push({
      id,
      customerId: customer.id,
      email: customer.email,
      pullExplanation: customer.pullExplanation,
      document: {
        client,
        customer: billCustomer(customer),
        statement: statementFiguresOf(statement),
        periodStart: before ? dayAfter(before) : null,
        lines: linesOf.get(id) ?? [],
        payLink:
          options.publicUrl && takesCards
            ? statementPayLink(options.publicUrl, clientId, statement.payCode)
            : undefined,
        // What the statement announced when its autopay charge was planned, once recorded.
        autopay:
          statement.autopayMethod && statement.autopayChargeDate
            ? { method: statement.autopayMethod, chargeDate: statement.autopayChargeDate }
            : method
              ? { method, chargeDate: autopayChargeDate(statement.statementDate, client.dueDays) }
              : undefined,
        corrected: statement.correctedOn ? { on: statement.correctedOn } : undefined,
      },
    });
  }
  return loaded;
}
