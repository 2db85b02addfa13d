import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { CodeType } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { clients, codes, customers, routePlans, routes, transactions } from "../../db/tables.js";
import { postTransaction } from "../transactions/post-transaction.js";
import { createUser } from "../users/create-user.js";

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

const demoCodes: { code: number; description: string; codeType: CodeType; taxable?: boolean }[] = [
  { code: -4, description: "Previous balance", codeType: "info" },
  { code: -3, description: "Reversal", codeType: "adjust" },
  { code: -2, description: "Void", codeType: "adjust" },
  { code: -1, description: "Late fee", codeType: "charge" },
  { code: 100, description: "Monthly service", codeType: "charge" },
  { code: 110, description: "Extra service visit", codeType: "charge" },
  { code: 120, description: "Materials", codeType: "charge", taxable: true },
  { code: 200, description: "Payment - check", codeType: "payment" },
  { code: 210, description: "Payment - card", codeType: "payment" },
  { code: 300, description: "Credit adjustment", codeType: "adjust" },
  { code: 310, description: "Debit adjustment", codeType: "debit" },
  { code: 400, description: "Loyalty discount", codeType: "flat_discount" },
  { code: 410, description: "Senior discount 10%", codeType: "percent_discount" },
  { code: 900, description: "Note to customer", codeType: "info" },
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

export type SeedDemoOptions = { createAdmin: boolean; now?: Date; customersPerClient?: number };

/**
 * Demo data for a first start: an admin (unless one is configured), two clients each with an
 * owner and a staff user, codes, two groups, customers with varied flags and months of postings.
 */
export async function seedDemo(db: Database, options: SeedDemoOptions): Promise<DemoLogin[]> {
  const now = options.now ?? new Date();
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
        termsMessage: "Due on receipt",
        clientMessage: `Welcome to ${demo.clientName} billing.`,
        billMessageLine1: "Thank you for your business.",
        clientStartDate: isoDate(dayOfMonth(12, 1, now)),
      })
      .returning();
    if (!client) throw new Error("demo client was not created");
    const tenant = { clientId: client.id };

    for (const [role, isClientStaff] of [
      ["owner", false],
      ["staff", true],
    ] as const) {
      const email = `${role}@${demo.domain}`;
      const password = demoPassword();
      await createUser(db, {
        email,
        password,
        firstName: role === "owner" ? "Olivia" : "Sam",
        lastName: demo.clientName.split(" ")[0] ?? "Demo",
        isClientStaff,
        clientId: client.id,
      });
      logins.push({ role: `client ${role}`, email, password, client: demo.clientName });
    }

    const codeRows = await db
      .insert(codes)
      .values(
        demoCodes.map((code) => ({
          clientId: client.id,
          code: code.code,
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
          autopayFlag: index % 8 === 2,
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

      const monthlyRate = centsBetween(random, 25, 120);
      // Payers: most pay in full the next month, some pay part, a few never pay (ageing demo).
      const payerKind = random();
      for (let monthsAgo = 3; monthsAgo >= 0; monthsAgo -= 1) {
        const serviceDay = dayOfMonth(monthsAgo, Math.min(demo.normalCycle, 28), now);
        if (serviceDay > now) continue;
        await postTransaction(db, tenant, {
          customerId: customer.id,
          codeId: codeId(100),
          description: demo.serviceName,
          rate: monthlyRate,
          serviceDate: isoDate(serviceDay),
          createdAt: serviceDay,
        });
        if (random() < 0.3) {
          await postTransaction(db, tenant, {
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
        await postTransaction(db, tenant, {
          customerId: customer.id,
          codeId: codeId(index % 3 === 0 ? 210 : 200),
          description: index % 3 === 0 ? "Card payment" : "Check payment",
          rate: paymentRate,
          serviceDate: isoDate(paymentDay),
          createdAt: paymentDay,
        });
      }
      if (index % 11 === 5) {
        await postTransaction(db, tenant, {
          customerId: customer.id,
          codeId: codeId(300),
          description: "Courtesy credit",
          rate: "5.00",
          serviceDate: isoDate(now),
          createdAt: now,
        });
      }
      if (index % 13 === 6) {
        await db
          .update(customers)
          .set({ deleteFlag: index % 2 === 0 ? "S" : "D" })
          .where(and(eq(customers.clientId, client.id), eq(customers.id, customer.id)));
      }
    }

    await resetMonthToDate(db, client.id, dayOfMonth(0, 1, now));
  }
  return logins;
}

/** Month-to-date figures count only this month's postings; back-dated demo postings must not inflate them. */
async function resetMonthToDate(db: Database, clientId: number, monthStart: Date): Promise<void> {
  const since = isoDate(monthStart);
  const sumFor = (types: string[]) => sql`coalesce((
      select sum(t.amount) from ${transactions} t join ${codes} c on c.client_id = t.client_id and c.id = t.code_id
      where t.client_id = ${customers.clientId} and t.customer_id = ${customers.id}
        and t.service_date >= ${since}::date and c.code_type in (${sql.join(
          types.map((type) => sql`${type}`),
          sql`, `,
        )})), 0)`;
  await db
    .update(customers)
    .set({
      mtdCharges: sumFor(["charge"]),
      mtdPayments: sumFor(["payment"]),
      mtdCrAdj: sumFor(["adjust", "percent_discount", "flat_discount"]),
      mtdDbAdj: sumFor(["debit"]),
    })
    .where(eq(customers.clientId, clientId));
}
