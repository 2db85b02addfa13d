import { and, eq, inArray, sql } from "drizzle-orm";
import { toQuantity, toRate } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { clients, customers, invoices, statements, type codes } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { attachTransactions, createInvoice } from "../invoices/create-invoice.js";
import { changeInvoiceStatus } from "../invoices/manage-invoices.js";
import { recomputeMonthToDate } from "../ledger/statement-period.js";
import { recordAllCustomerChanges } from "../ledger/customer-changes.js";
import { postEntries } from "../ledger/post-entries.js";
import { createStatement, type StatementDelivery } from "../statements/create-statement.js";
import type { CustomerPlan } from "./seed-demo-customers.js";
import { dayOfMonth, isoDate } from "./seed-demo-data.js";

// The demo's history: its planned postings played month by month as the business would have lived
// them, with the invoices of a month's charges and the month-end statement runs, through the same
// functions the app and the production run use.

/**
 * The last four months in date order: a month's postings of every customer (and its invoices), then
 * the month-end statement run over every customer, then the next month.
 */
export async function playDemoMonths(
  db: Database,
  options: {
    tenant: { clientId: number };
    ownerTenant: TenantContext;
    plans: readonly CustomerPlan[];
    codeRows: (typeof codes.$inferSelect)[];
    codeId: (code: number) => number;
    now: Date;
  },
): Promise<void> {
  const { tenant, ownerTenant, plans, codeRows, codeId, now } = options;
  const chargeCodes = new Set([codeId(100), codeId(110)]);
  const codeTypeOf = new Map(codeRows.map((row) => [row.id, row.codeType]));
  for (let monthsAgo = 3; monthsAgo >= 0; monthsAgo -= 1) {
    const monthStart = isoDate(dayOfMonth(monthsAgo, 1, now));
    const monthEnd = isoDate(dayOfMonth(monthsAgo - 1, 0, now));
    // The month's postings of every customer, in date order, through the ledger writer in one call.
    const due = plans.flatMap((plan) =>
      plan.postings
        .filter(
          (posting) => (posting.serviceDate ?? "") >= monthStart && (posting.serviceDate ?? "") <= monthEnd,
        )
        .sort((a, b) => (a.serviceDate ?? "").localeCompare(b.serviceDate ?? ""))
        .map((posting) => ({ plan, posting })),
    );
    const posted = await db.transaction((tx) =>
      postEntries(
        tx,
        tenant,
        due.map(({ posting }) => ({
          customerId: posting.customerId,
          codeId: posting.codeId,
          codeType: codeTypeOf.get(posting.codeId) ?? "info",
          description: posting.description,
          rate: toRate(posting.rate),
          quantity: toQuantity(posting.quantity ?? "1"),
          serviceDate: posting.serviceDate ?? isoDate(now),
          createdAt: posting.createdAt,
        })),
      ),
    );
    const chargesOf = new Map<number, DemoCharge[]>();
    due.forEach(({ plan, posting }, position) => {
      const id = posted.ids[position];
      if (id === null || id === undefined || !chargeCodes.has(posting.codeId)) return;
      const charges = chargesOf.get(plan.customerId) ?? [];
      charges.push({
        id,
        customerId: plan.customerId,
        serviceDate: posting.serviceDate ?? isoDate(now),
        createdAt: posting.createdAt ?? now,
      });
      chargesOf.set(plan.customerId, charges);
    });
    for (const plan of plans) {
      const status = demoInvoiceStatus(plan.index, monthsAgo);
      const charges = chargesOf.get(plan.customerId) ?? [];
      if (status && charges.length > 0) await seedInvoice(db, ownerTenant, charges, status);
    }
    // The month-end run; the current month has not ended yet.
    if (monthsAgo > 0)
      await seedStatementRun(db, tenant, plans, monthEnd, dayOfMonth(monthsAgo - 1, 1, now), now);
  }
}

/**
 * After the history: a few customers flagged for deletion, month-to-date reset to this month, the
 * client books told of the customers written outside the ledger, and the client's billing dates and
 * cycle counts as the demo's statement runs left them.
 */
export async function closeDemoHistory(
  db: Database,
  clientId: number,
  plans: readonly CustomerPlan[],
  now: Date,
): Promise<void> {
  for (const plan of plans) {
    if (plan.index % 13 !== 6) continue;
    await db
      .update(customers)
      .set({ deleteFlag: plan.index % 2 === 0 ? "S" : "D" })
      .where(and(eq(customers.clientId, clientId), eq(customers.id, plan.customerId)));
  }

  await resetMonthToDate(db, clientId, dayOfMonth(0, 1, now));
  // Customers written here outside the ledger (added, archived): every client book rereads them.
  await recordAllCustomerChanges(db, clientId);
  // Billed through last month's end (the demo's statement runs): the next run's period starts after
  // it, and the books are closed through it (a statemented period takes no postings).
  await db
    .update(clients)
    .set({
      dateLastBilling: isoDate(dayOfMonth(0, 0, now)),
      booksClosedThrough: isoDate(dayOfMonth(0, 0, now)),
      dateFirstBilling: isoDate(dayOfMonth(3, 0, now)),
    })
    .where(eq(clients.id, clientId));
  await recordDemoCycleCounts(db, clientId);
}

type DemoInvoiceStatus = "open" | "closed";
type DemoCharge = { id: number; customerId: number; serviceDate: string; createdAt: Date };

/**
 * Which customers get an invoice of a month's charges: every tenth customer in the two months
 * before last (closed, so the month-end statement carries them and they become processed), and
 * half of those again this month, one open and one closed (not yet sent).
 */
function demoInvoiceStatus(index: number, monthsAgo: number): DemoInvoiceStatus | null {
  if (index % 10 !== 3) return null;
  if (monthsAgo === 1 || monthsAgo === 2) return "closed";
  if (monthsAgo === 0) return index % 20 === 3 ? "open" : "closed";
  return null;
}

/** An invoice of the given entries through the real invoice functions, dated and back-dated to the first. */
async function seedInvoice(
  db: Database,
  tenant: TenantContext,
  charges: DemoCharge[],
  status: DemoInvoiceStatus,
): Promise<void> {
  const [first] = charges;
  if (!first) return;
  const invoice = await createInvoice(db, tenant, {
    customerId: first.customerId,
    invoiceDate: first.serviceDate,
    createdByUserId: tenant.user.id,
  });
  await attachTransactions(
    db,
    tenant,
    invoice.id,
    charges.map((charge) => charge.id),
  );
  if (status === "closed") await changeInvoiceStatus(db, tenant, invoice.id, "close");
  await db
    .update(invoices)
    .set({ createdAt: first.createdAt, closedAt: status === "closed" ? first.createdAt : null })
    .where(and(eq(invoices.clientId, tenant.clientId), eq(invoices.id, invoice.id)));
}

const deliveryByPullFlag: Record<string, StatementDelivery> = { E: "email", M: "both", A: "mail" };

/**
 * A month-end statement for every customer through the real createStatement (as the production
 * run makes them), then back-dated to the night of the run.
 */
async function seedStatementRun(
  db: Database,
  tenant: { clientId: number },
  plans: readonly CustomerPlan[],
  statementDate: string,
  runDay: Date,
  now: Date,
): Promise<void> {
  const ranAt = runDay > now ? now : runDay;
  const ids: number[] = [];
  for (const plan of plans) {
    const statement = await createStatement(db, tenant, {
      customerId: plan.customerId,
      statementDate,
      delivery: deliveryByPullFlag[plan.pullFlag] ?? "pulled",
    });
    ids.push(statement.id);
  }
  if (ids.length === 0) return;
  await db
    .update(statements)
    .set({ createdAt: ranAt })
    .where(and(eq(statements.clientId, tenant.clientId), inArray(statements.id, ids)));
  await db
    .update(invoices)
    .set({ processedAt: ranAt })
    .where(and(eq(invoices.clientId, tenant.clientId), inArray(invoices.statementId, ids)));
}

/**
 * The counts a production run leaves on the client (run-production's finishClientRun), from the
 * demo's statement runs: the last cycle's bills by delivery and the fiscal year's bills sent, so the
 * Rates tab's usage and the history agree with the statements Account Totals count.
 */
async function recordDemoCycleCounts(db: Database, clientId: number): Promise<void> {
  await db.execute(sql`
    with client as (
      select id, date_last_billing as last,
             make_date(extract(year from date_last_billing)::int
                         - case when extract(month from date_last_billing) < fiscal_year_reset_month then 1 else 0 end,
                       fiscal_year_reset_month, 1) as year_start
      from clients where id = ${clientId}),
    counts as (
      select count(*) filter (where s.statement_date = c.last and s.delivery in ('mail', 'both')) as mailed,
             count(*) filter (where s.statement_date = c.last and s.delivery in ('email', 'both')) as emailed,
             count(*) filter (where s.statement_date = c.last and s.delivery = 'pulled') as pulled,
             count(*) filter (where s.statement_date >= c.year_start and s.delivery <> 'pulled') as sent_ytd
      from client c left join statements s on s.client_id = c.id)
    update clients set number_mailed_bills = counts.mailed, number_emailed_bills = counts.emailed,
           number_pulled_bills = counts.pulled, number_bills_sent_ytd = counts.sent_ytd,
           number_bill_overflows = 0
    from counts where clients.id = ${clientId}`);
}

/** Month-to-date figures count only this month's postings; back-dated demo postings must not inflate them. */
async function resetMonthToDate(db: Database, clientId: number, monthStart: Date): Promise<void> {
  await recomputeMonthToDate(db, clientId, isoDate(monthStart));
}
