import type { Database } from "../../db/database.js";
import { clients, codes, routes } from "../../db/tables.js";
import { authUserOf, type TenantContext } from "../../http/auth-context.js";
import { refreshStatistics } from "../../db/refresh-statistics.js";
import { keepAccessReview } from "../access-review/record-access-review.js";
import { createUser } from "../users/create-user.js";
import { currentClock } from "../../clock.js";
import { seedDemoCustomers } from "./seed-demo-customers.js";
import { demoClients, demoCodes, demoPassword, dayOfMonth, isoDate, seededRandom } from "./seed-demo-data.js";
import { closeDemoHistory, playDemoMonths } from "./seed-demo-history.js";
import { pointDemoClientsAtSandbox } from "./seed-demo-payments.js";

export type DemoLogin = { role: string; email: string; password: string; client: string | null };

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
        dueDays: 0,
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
    const plans = await seedDemoCustomers(db, {
      clientId: client.id,
      demo,
      perClient,
      groupRows,
      codeId,
      random,
      now,
    });
    await playDemoMonths(db, { tenant, ownerTenant, plans, codeRows, codeId, now });
    await closeDemoHistory(db, client.id, plans, now);
    // A quarterly access review taken a month ago, so the Access review screen has one to show.
    const reviewedAt = new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000);
    await keepAccessReview(db, {
      scope: { clientId: client.id, clientName: demo.clientName },
      reviewer: { id: ownerTenant.user.id, label: ownerTenant.user.email },
      note: "Quarterly review: the owner and staff accounts are both still needed; no one to remove.",
      reviewedAt,
      reviewDate: isoDate(reviewedAt),
    });
  }
  if (options.secretsKey) await pointDemoClientsAtSandbox(db, options.secretsKey, demoClientIds);
  // Statistics for the data just written: PGlite has no autovacuum to gather them.
  await refreshStatistics(db);
  return logins;
}
