import { refreshStatistics } from "../maintenance/refresh-statistics.js";
import { randomBytes } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { toQuantity, toRate, type CodeType } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import {
  clients,
  codes,
  customers,
  invoices,
  recurringCharges,
  routePlans,
  routes,
  statements,
} from "../../db/tables.js";
import type { AuthUser, TenantContext } from "../../http/auth-context.js";
import { attachTransactions, createInvoice } from "../invoices/create-invoice.js";
import { changeInvoiceStatus } from "../invoices/manage-invoices.js";
import { recomputeMonthToDate } from "../ledger/statement-period.js";
import { createStatement, type StatementDelivery } from "../statements/create-statement.js";
import { recordAllCustomerChanges } from "../ledger/customer-changes.js";
import type { PostingInput } from "../transactions/post-transaction.js";
import { postEntries } from "../ledger/post-entries.js";
import { createUser, type UserRow } from "../users/create-user.js";
import { currentClock } from "../../clock.js";
import { pointDemoClientsAtSandbox } from "./seed-demo-payments.js";

export type DemoLogin = { role: string; email: string; password: string; client: string | null };

type DemoClient = {
  clientNo: number;
  clientName: string;
  domain: string;
  city: string;
  state: string;
  zip: string;
  normalCycle: number;
  financeFlag: string;
  groups: [string, string];
  serviceName: string;
};

const demoClients: DemoClient[] = [
  {
    clientNo: 1001,
    clientName: "Greenway Lawn & Garden",
    domain: "greenway.example",
    city: "Springfield",
    state: "IL",
    zip: "62701",
    normalCycle: 5,
    financeFlag: "1",
    groups: ["North route", "South route"],
    serviceName: "Weekly lawn service",
  },
  {
    clientNo: 1002,
    clientName: "Harbor Water Co-op",
    domain: "harborwater.example",
    city: "Portland",
    state: "ME",
    zip: "04101",
    normalCycle: 15,
    financeFlag: "N",
    groups: ["Harbor district", "Hillside district"],
    serviceName: "Monthly water service",
  },
];

// Every code has a short name (the Codes list and pickers show it) and a longer description.
const demoCodes: {
  code: number;
  codeName: string;
  description: string;
  codeType: CodeType;
  taxable?: boolean;
}[] = [
  { code: -4, codeName: "Previous balance", description: "Previous balance", codeType: "info" },
  { code: -3, codeName: "Reversal", description: "Reversal", codeType: "adjust" },
  { code: -2, codeName: "Void", description: "Void", codeType: "adjust" },
  { code: -1, codeName: "Late fee", description: "Late fee", codeType: "charge" },
  { code: 100, codeName: "Service", description: "Monthly service", codeType: "charge" },
  { code: 110, codeName: "Extra visit", description: "Extra service visit", codeType: "charge" },
  { code: 120, codeName: "Materials", description: "Materials", codeType: "charge", taxable: true },
  { code: 130, codeName: "Rental", description: "Equipment rental", codeType: "charge" },
  { code: 200, codeName: "Check", description: "Payment - check", codeType: "payment" },
  { code: 210, codeName: "Card", description: "Payment - card", codeType: "payment" },
  { code: 300, codeName: "Credit adj.", description: "Credit adjustment", codeType: "adjust" },
  { code: 310, codeName: "Debit adj.", description: "Debit adjustment", codeType: "debit" },
  { code: 400, codeName: "Loyalty", description: "Loyalty discount", codeType: "flat_discount" },
  { code: 410, codeName: "Senior 10%", description: "Senior discount 10%", codeType: "percent_discount" },
  { code: 900, codeName: "Note", description: "Note to customer", codeType: "info" },
];

const firstNames = [
  "Ava",
  "Ben",
  "Carla",
  "Dev",
  "Elena",
  "Frank",
  "Grace",
  "Hector",
  "Ines",
  "Jamal",
  "Kira",
  "Liam",
];
const lastNames = [
  "Anders",
  "Brooks",
  "Castillo",
  "Dubois",
  "Eriksen",
  "Fischer",
  "Garcia",
  "Hughes",
  "Ito",
  "Jensen",
];
const companies = [
  "Maple Street Dental",
  "Riverside Diner",
  "Oak & Iron Works",
  "Bluebird Bakery",
  "Summit Storage",
];
const streets = ["Maple St", "Oak Ave", "Cedar Ln", "Elm St", "Lakeview Dr", "Hill Rd", "Park Pl", "Mill Rd"];
// Statement flags with the weight each gets among the demo customers.
const pullFlags = ["A", "A", "A", "A", "A", "E", "E", "M", "M", "T", "P", "N", "L"];

/** A small deterministic generator, so every demo database has the same customers and amounts. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function demoPassword(): string {
  return randomBytes(12).toString("base64url");
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function dayOfMonth(monthsAgo: number, day: number, now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, day, 15, 0, 0));
}

/** Whole-cent amount in [min, max] as a decimal string, from integer cents (no floating point money). */
function centsBetween(random: () => number, min: number, max: number): string {
  const cents = min * 100 + Math.floor(random() * (max - min) * 100);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

export type SeedDemoOptions = {
  createAdmin: boolean;
  now?: Date;
  customersPerClient?: number;
  /** Seals the demo clients' gateway key (the sandbox's demo account); without it they take no cards. */
  secretsKey?: string;
};

/**
 * Demo data for a first start: an admin (unless one is configured), two clients each with an
 * owner and a staff user, codes, two groups, customers with varied flags and months of postings,
 * a month-end statement for every customer for each past month, and a few invoices (sent, closed
 * and open) — all through the same functions the app and the production run use.
 */
export async function seedDemo(db: Database, options: SeedDemoOptions): Promise<DemoLogin[]> {
  const now = options.now ?? currentClock().now();
  const perClient = options.customersPerClient ?? 60;
  const random = seededRandom(20261121);
  const logins: DemoLogin[] = [];

  if (options.createAdmin) {
    const password = demoPassword();
    await createUser(db, {
      email: "admin@cyclebill.example",
      password,
      firstName: "Provider",
      lastName: "Admin",
      isAdmin: true,
    });
    logins.push({ role: "provider admin", email: "admin@cyclebill.example", password, client: null });
  }

  const demoClientIds: number[] = [];
  for (const demo of demoClients) {
    const [client] = await db
      .insert(clients)
      .values({
        clientNo: demo.clientNo,
        clientName: demo.clientName,
        address1: "100 Main St",
        city: demo.city,
        state: demo.state,
        zip: demo.zip,
        busPhone: "(555)-010-0100",
        email: `billing@${demo.domain}`,
        businessOwner: "Demo Owner",
        primaryContact: "Demo Owner",
        normalCycle: demo.normalCycle,
        financeFlag: demo.financeFlag,
        thirtyDayRateOrPercent: "percent",
        financeRate30Day: demo.financeFlag === "N" ? null : "1.50000",
        // Late fees at every tier for the production run's demo: 1.5% at 30, $5.00 at 60, 2% at 90 days.
        sixtyDayRateOrPercent: "rate",
        dayCharge60Day: demo.financeFlag === "N" ? null : "5.00",
        ninetyDayRateOrPercent: "percent",
        dayFinanceRate90Day: demo.financeFlag === "N" ? null : "2.00000",
        termsMessage: "Due on receipt",
        // What the provider charges per bill: the rates tab prices each cycle's usage with these.
        mailedBillRate: "0.55000",
        emailedBillRate: "0.10000",
        pulledBillRate: "0.25000",
        overflowBillRate: "0.15000",
        creditCardBillRate: "0.35000",
        basicFee: "25.00",
        clientMessage: `Welcome to ${demo.clientName} billing.`,
        billMessageLine1: "Thank you for your business.",
        clientStartDate: isoDate(dayOfMonth(12, 1, now)),
      })
      .returning();
    if (!client) throw new Error("demo client was not created");
    demoClientIds.push(client.id);
    const tenant = { clientId: client.id };

    let ownerTenant: TenantContext | null = null;
    for (const [role, isClientStaff] of [
      ["owner", false],
      ["staff", true],
    ] as const) {
      const email = `${role}@${demo.domain}`;
      const password = demoPassword();
      const user = await createUser(db, {
        email,
        password,
        firstName: role === "owner" ? "Olivia" : "Sam",
        lastName: demo.clientName.split(" ")[0] ?? "Demo",
        isClientStaff,
        clientId: client.id,
      });
      logins.push({ role: `client ${role}`, email, password, client: demo.clientName });
      if (role === "owner") ownerTenant = { clientId: client.id, user: authUserOf(user) };
    }
    if (!ownerTenant) throw new Error("demo owner was not created");

    const codeRows = await db
      .insert(codes)
      .values(
        demoCodes.map((code) => ({
          clientId: client.id,
          code: code.code,
          codeName: code.codeName,
          description: code.code === 100 ? demo.serviceName : code.description,
          codeType: code.codeType,
          taxable: code.taxable ?? false,
        })),
      )
      .returning();
    const codeId = (number: number): number => {
      const found = codeRows.find((row) => row.code === number);
      if (!found) throw new Error(`demo code ${number} missing`);
      return found.id;
    };

    const groupRows = await db
      .insert(routes)
      .values(demo.groups.map((routeName) => ({ clientId: client.id, routeName })))
      .returning();

    // Customers first, each with the postings of its last four months planned; then the months
    // are played in date order as the business would have lived them: a month's postings (and
    // its invoices), then the month-end statement run over every customer, then the next month.
    const plans: CustomerPlan[] = [];
    const recurringRows: (typeof recurringCharges.$inferInsert)[] = [];
    for (let index = 0; index < perClient; index += 1) {
      const isCompany = index % 9 === 4;
      const firstName = isCompany ? "" : (firstNames[index % firstNames.length] ?? "");
      const lastName = isCompany ? "" : (lastNames[(index * 7) % lastNames.length] ?? "");
      const companyName = isCompany ? (companies[index % companies.length] ?? "") : "";
      const pullFlag = pullFlags[index % pullFlags.length] ?? "A";
      const wantsEmail = pullFlag === "E" || pullFlag === "M" || index % 4 === 0;
      const archived = index % 29 === 28;
      const [customer] = await db
        .insert(customers)
        .values({
          clientId: client.id,
          customerNo: 1001 + index,
          customerName: companyName || `${firstName} ${lastName}`,
          firstName,
          lastName,
          companyName,
          phone1:
            index % 5 === 0
              ? "0000000000"
              : `(555)-${String(200 + index).padStart(3, "0")}-${String(1000 + index * 37).slice(-4)}`,
          email: wantsEmail ? `customer${index + 1}@${demo.domain}` : "",
          address1: `${100 + index * 3} ${streets[index % streets.length]}`,
          city: demo.city,
          state: demo.state,
          zip: demo.zip,
          pullFlag,
          biPullFlag: pullFlag === "E" ? "E" : pullFlag === "M" ? "B" : "M",
          financeFlag: index % 10 === 3 ? "N" : "C",
          taxStatus: index % 6 === 5 ? "F" : "T",
          // Autopay charges a stored card: the demo's payments store one for every eighth customer and turn it on.
          autopayFlag: false,
          openDate: isoDate(dayOfMonth(6, 1, now)),
        })
        .returning();
      if (!customer) throw new Error("demo customer was not created");

      const group = groupRows[index % 2];
      if (group) {
        await db.insert(routePlans).values({
          clientId: client.id,
          routeId: group.id,
          customerId: customer.id,
          stop: Math.floor(index / 2),
          billIndicatorFlag: index % 15 === 7 ? "skip" : index % 17 === 9 ? "pause" : "standard",
        });
      }
      if (archived) {
        await db
          .update(customers)
          .set({ deleted: true, deletedAt: now })
          .where(and(eq(customers.clientId, client.id), eq(customers.id, customer.id)));
        continue;
      }

      // Recurring charges the production run posts: a monthly rental for every third customer,
      // and a twice-a-month summer service (in arrears) for every fifth.
      const base = {
        clientId: client.id,
        customerId: customer.id,
        quantity: "1",
        startMonth: 1,
        endMonth: 12,
        // Entered when the customer opened: a charge never bills before it existed.
        createdAt: dayOfMonth(6, 1, now),
      };
      if (index % 3 === 1)
        recurringRows.push({
          ...base,
          codeId: codeId(130),
          description: "Equipment rental",
          rate: "12.00000",
          amount: "12.00",
        });
      if (index % 5 === 2)
        recurringRows.push({
          ...base,
          codeId: codeId(110),
          description: "Summer visits",
          rate: "18.50000",
          amount: "18.50",
          startMonth: 4,
          endMonth: 10,
          frequency: "semimonthly",
          arrears: true,
        });

      const postings: PostingInput[] = [];
      const monthlyRate = centsBetween(random, 25, 120);
      // Payers: most pay in full the next month, some pay part, a few never pay (ageing demo).
      const payerKind = random();
      for (let monthsAgo = 3; monthsAgo >= 0; monthsAgo -= 1) {
        const serviceDay = dayOfMonth(monthsAgo, Math.min(demo.normalCycle, 28), now);
        if (serviceDay > now) continue;
        postings.push({
          customerId: customer.id,
          codeId: codeId(100),
          description: demo.serviceName,
          rate: monthlyRate,
          serviceDate: isoDate(serviceDay),
          createdAt: serviceDay,
        });
        if (random() < 0.3) {
          postings.push({
            customerId: customer.id,
            codeId: codeId(110),
            description: "Extra service visit",
            rate: centsBetween(random, 15, 60),
            quantity: String(1 + Math.floor(random() * 3)),
            serviceDate: isoDate(serviceDay),
            createdAt: serviceDay,
          });
        }
        const paymentDay = dayOfMonth(monthsAgo - 1, Math.min(demo.normalCycle + 10, 28), now);
        if (paymentDay > now || payerKind > 0.9) continue;
        const paymentRate = payerKind > 0.75 ? centsBetween(random, 10, 25) : monthlyRate;
        postings.push({
          customerId: customer.id,
          codeId: codeId(index % 3 === 0 ? 210 : 200),
          description: index % 3 === 0 ? "Card payment" : "Check payment",
          rate: paymentRate,
          serviceDate: isoDate(paymentDay),
          createdAt: paymentDay,
        });
      }
      if (index % 11 === 5) {
        postings.push({
          customerId: customer.id,
          codeId: codeId(300),
          description: "Courtesy credit",
          rate: "5.00",
          serviceDate: isoDate(now),
          createdAt: now,
        });
      }
      plans.push({ customerId: customer.id, index, pullFlag, postings });
    }

    if (recurringRows.length > 0) await db.insert(recurringCharges).values(recurringRows);
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

    for (const plan of plans) {
      if (plan.index % 13 !== 6) continue;
      await db
        .update(customers)
        .set({ deleteFlag: plan.index % 2 === 0 ? "S" : "D" })
        .where(and(eq(customers.clientId, client.id), eq(customers.id, plan.customerId)));
    }

    await resetMonthToDate(db, client.id, dayOfMonth(0, 1, now));
    // Customers written here outside the ledger (added, archived): every client book rereads them.
    await recordAllCustomerChanges(db, client.id);
    // Billed through last month's end (the demo's statement runs): the next run's period starts after
    // it, and the books are closed through it (a statemented period takes no postings).
    await db
      .update(clients)
      .set({
        dateLastBilling: isoDate(dayOfMonth(0, 0, now)),
        booksClosedThrough: isoDate(dayOfMonth(0, 0, now)),
        dateFirstBilling: isoDate(dayOfMonth(3, 0, now)),
      })
      .where(eq(clients.id, client.id));
    await recordDemoCycleCounts(db, client.id);
  }
  // Statistics for the data just written: PGlite has no autovacuum to gather them.
  if (options.secretsKey) await pointDemoClientsAtSandbox(db, options.secretsKey, demoClientIds);
  await refreshStatistics(db);
  return logins;
}

type CustomerPlan = { customerId: number; index: number; pullFlag: string; postings: PostingInput[] };
type DemoInvoiceStatus = "open" | "closed";
type DemoCharge = { id: number; customerId: number; serviceDate: string; createdAt: Date };

function authUserOf(user: UserRow): AuthUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    isAdmin: user.isAdmin,
    isClientStaff: user.isClientStaff,
    clientId: user.clientId,
  };
}

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
