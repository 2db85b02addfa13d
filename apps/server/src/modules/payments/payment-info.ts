import { and, desc, eq, sql } from "drizzle-orm";
import {
  DEFAULT_DUE_DAYS,
  STATEMENT_NOT_FOUND_MESSAGE,
  amountDueNow,
  parseStatementPayToken,
  statementDueDate,
  autopayNotice,
  dueDateLabel,
  toAmount,
  type PaymentInfo,
  type PublicPaymentInfo,
  type StoredMethod,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Database, Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbText } from "../../db/row-schemas.js";
import { clients, customerPaymentMethods, customers, statements } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { HttpError, notFound } from "../../http/errors.js";
import { recordLinkView } from "../delivery/link-went-out.js";
import { moneyTransaction } from "../ledger/money-transaction.js";
import { setCustomerGatewayState } from "../customers/customer-gateway-state.js";
import { isNewerStatement, newestStatementFirst } from "../statements/newer-statement.sql.js";
import { auditStoredMethod, storedMethodsBefore } from "./stored-method-audit.js";
import { gatewayKeyColumns, takesCardPayments } from "./card-payments-taken.js";

type CustomerRow = typeof customers.$inferSelect;
type StatementRow = typeof statements.$inferSelect;

export function statementNotFound(): HttpError {
  return new HttpError(404, { detail: STATEMENT_NOT_FOUND_MESSAGE });
}

export async function storedMethodOf(
  db: Executor,
  clientId: number,
  customerId: number,
): Promise<(StoredMethod & { token: string }) | null> {
  const [row] = await db
    .select()
    .from(customerPaymentMethods)
    .where(
      and(eq(customerPaymentMethods.clientId, clientId), eq(customerPaymentMethods.customerId, customerId)),
    );
  if (!row) return null;
  return {
    kind: row.kind,
    mask: row.mask,
    card_type: row.cardType,
    expiry: row.expiry,
    stored_at: row.storedAt.toISOString(),
    token: row.token,
  };
}

/**
 * What is due now on the customer's latest statement, by the one rule (amountDueNow): what the page
 * shows, what its form starts at and all the saved method may pay. Without a statement (the staff
 * form), what is owed now. A pay page always shows the latest statement (findPayableStatement), the
 * one the documents list shows as payable: an older statement's link never asks for an amount the
 * list has carried forward.
 */
export function statementAmountDue(balance: string, statement: StatementRow | null): string {
  const newBalance = statement ? statement.newBalance : balance;
  return amountDueNow({ newBalance, currentBalance: balance, superseded: false });
}

/** An autopay charge of the statement's production run, for the customer. */
const autopayAttemptRowSchema = z.object({ status: dbText });

/**
 * The autopay notice of a statement's pay page: what the statement announced when it was made (the
 * method and date recorded with its autopay charge), while that charge stands. Declined (or failed),
 * or autopay turned off since with nothing charged, the notice goes and the page asks for the amount
 * due; a statement that announced no autopay asks to be paid whatever the customer's autopay today.
 */
async function statementAutopayNotice(
  db: Executor,
  customer: CustomerRow,
  statement: StatementRow,
  hasStoredMethod: boolean,
): Promise<string | null> {
  if (!statement.autopayMethod || !statement.autopayChargeDate) return null;
  // A statement of no production run has no autopay card run to ask: its charge is still to come.
  const attempts =
    statement.productionRunId === null
      ? []
      : await queryRows(
          db,
          sql`select a.status from payment_attempts a
              join production_runs p on p.client_id = a.client_id and p.autopay_job_run_id = a.card_run_id
              where p.client_id = ${statement.clientId} and p.id = ${statement.productionRunId}
                and a.customer_id = ${customer.id} and a.kind = 'sale' and a.source = 'autopay'`,
          autopayAttemptRowSchema,
        );
  const statuses = new Set(attempts.map((row) => row.status));
  const charged = statuses.has("approved") || statuses.has("pending");
  const failed = !charged && (statuses.has("declined") || statuses.has("error"));
  const stillOn = customer.autopayFlag && hasStoredMethod;
  if (failed || (!charged && !stillOn)) return null;
  return autopayNotice({
    amount: statement.newBalance,
    method: statement.autopayMethod,
    chargeDate: statement.autopayChargeDate,
  });
}

async function infoOf(
  db: Executor,
  customer: CustomerRow,
  statement: StatementRow | null,
  replaced: StatementRow | null = null,
): Promise<PaymentInfo> {
  const [client] = await db
    .select({
      name: clients.clientName,
      dueDays: clients.dueDays,
      ...gatewayKeyColumns,
    })
    .from(clients)
    .where(eq(clients.id, customer.clientId));
  const stored = await storedMethodOf(db, customer.clientId, customer.id);
  const due = statementAmountDue(customer.totalBalance, statement);
  const dueDays = client?.dueDays ?? DEFAULT_DUE_DAYS;
  return {
    hasStoredPaymentInfo: stored !== null,
    amount: due,
    accountbalance: toAmount(customer.totalBalance),
    address1: customer.address1,
    address2: customer.address2,
    city: customer.city,
    state: customer.state,
    zip: customer.zip,
    email: customer.email,
    company: customer.companyName,
    customer_no: customer.customerNo,
    names: customer.customerName,
    first_name: customer.firstName,
    last_name: customer.lastName,
    client_name: client?.name ?? "",
    takes_card_payments: takesCardPayments(client),
    statement: statement
      ? {
          statement_num: statement.statementNum,
          statement_date: statement.statementDate,
          due_date: statementDueDate(statement.statementDate, dueDays),
          due_label: dueDateLabel(statement.statementDate, dueDays),
          amount_due: due,
          autopay_notice: await statementAutopayNotice(db, customer, statement, stored !== null),
          replaced_statement: replaced
            ? { statement_num: replaced.statementNum, statement_date: replaced.statementDate }
            : null,
        }
      : null,
    stored_method: stored
      ? {
          kind: stored.kind,
          mask: stored.mask,
          card_type: stored.card_type,
          expiry: stored.expiry,
          stored_at: stored.stored_at,
        }
      : null,
    autopay_flag: customer.autopayFlag,
  };
}

export type PayableStatement = {
  /** The customer's latest statement: the one to pay. */
  statement: StatementRow;
  customer: CustomerRow;
  /** The statement the token named, when a newer one has carried its balance forward. */
  replaced: StatementRow | null;
};

/**
 * The statement (and its customer) a pay token names; 404 with the page's message otherwise. When a
 * newer statement of the customer has carried its balance forward (the documents list's rule: a later
 * date, or the same date and made later), the newest one is what the page pays.
 */
export async function findPayableStatement(db: Executor, token: string): Promise<PayableStatement> {
  const parsed = parseStatementPayToken(token);
  if (!parsed) throw statementNotFound();
  const [row] = await db
    .select({ statement: statements, customer: customers })
    .from(statements)
    .innerJoin(
      customers,
      and(eq(customers.clientId, statements.clientId), eq(customers.id, statements.customerId)),
    )
    .where(and(eq(statements.clientId, parsed.clientId), eq(statements.payCode, parsed.payCode)))
    .orderBy(desc(statements.id))
    .limit(1);
  if (!row || row.customer.deleted) throw statementNotFound();
  const named = row.statement;
  const [latest] = await db
    .select()
    .from(statements)
    .where(
      and(
        eq(statements.clientId, named.clientId),
        eq(statements.customerId, named.customerId),
        isNewerStatement(
          { date: statements.statementDate, id: statements.id },
          { date: named.statementDate, id: named.id },
        ),
      ),
    )
    .orderBy(newestStatementFirst(statements.statementDate, statements.id))
    .limit(1);
  return latest
    ? { statement: latest, customer: row.customer, replaced: named }
    : { statement: named, customer: row.customer, replaced: null };
}

/** What the public page is told of the customer: no email. */
function publicInfo(info: PaymentInfo): PublicPaymentInfo {
  const { email: _email, ...shown } = info;
  return shown;
}

/** POST /api/payments/get-payment-info/: the public page's lookup by pay token. */
export async function publicPaymentInfo(db: Database, token: string): Promise<PublicPaymentInfo> {
  const { statement, customer, replaced } = await findPayableStatement(db, token);
  // The statement was seen through its link (went_out): its run can no longer be undone.
  const seen = await db.transaction((tx) => recordLinkView(tx, statement.clientId, statement.id));
  if (!seen) throw statementNotFound();
  return publicInfo(await infoOf(db, customer, statement, replaced));
}

/** POST /api/payments/get-link-info/: whom a staff-issued link stores a method for. */
export async function linkPaymentInfo(db: Database, customer: CustomerRow): Promise<PublicPaymentInfo> {
  return publicInfo(await infoOf(db, customer, null));
}

export async function findTenantCustomer(
  db: Executor,
  tenant: TenantContext,
  id: number,
): Promise<CustomerRow> {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, id)));
  if (!row) throw notFound();
  return row;
}

/** GET /api/customers/{id}/get-payment-info/: the staff form's start (no statement). */
export async function customerPaymentInfo(
  db: Database,
  tenant: TenantContext,
  id: number,
): Promise<PaymentInfo> {
  return infoOf(db, await findTenantCustomer(db, tenant, id), null);
}

/**
 * DELETE /api/customers/{id}/delete-payment-info/: forgets the stored method (the gateway keeps its
 * record; without the token we can no longer charge it) and turns autopay off with it.
 */
export async function deleteStoredMethod(db: Database, tenant: TenantContext, id: number): Promise<void> {
  await moneyTransaction(db, async (tx) => {
    await findTenantCustomer(tx, tenant, id);
    for (const method of await storedMethodsBefore(tx, tenant.clientId, id))
      await auditStoredMethod(tx, "delete", method, null);
    await tx
      .delete(customerPaymentMethods)
      .where(
        and(eq(customerPaymentMethods.clientId, tenant.clientId), eq(customerPaymentMethods.customerId, id)),
      );
    await setCustomerGatewayState(
      tx,
      { clientId: tenant.clientId, customerId: id },
      { transactionId: "", autopay: false },
    );
  });
}
