import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { customers, recurringCharges, routePlans, type routes } from "../../db/tables.js";
import type { PostingInput } from "../transactions/post-transaction.js";
import {
  centsBetween,
  companies,
  dayOfMonth,
  firstNames,
  isoDate,
  lastNames,
  pullFlags,
  streets,
  type DemoClient,
} from "./seed-demo-data.js";

/** A demo customer and the postings of its last four months, which the history plays month by month. */
export type CustomerPlan = { customerId: number; index: number; pullFlag: string; postings: PostingInput[] };

/**
 * A demo client's customers, with varied flags, groups and recurring charges (a few archived), each
 * with its postings planned but not yet posted. `random` is the seed's one generator: its draws here
 * come in customer order, so every demo database gets the same amounts.
 */
export async function seedDemoCustomers(
  db: Database,
  options: {
    clientId: number;
    demo: DemoClient;
    perClient: number;
    groupRows: (typeof routes.$inferSelect)[];
    codeId: (code: number) => number;
    random: () => number;
    now: Date;
  },
): Promise<CustomerPlan[]> {
  const { clientId, demo, perClient, groupRows, codeId, random, now } = options;
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
        clientId,
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
        clientId,
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
        .where(and(eq(customers.clientId, clientId), eq(customers.id, customer.id)));
      continue;
    }

    // Recurring charges the production run posts: a monthly rental for every third customer,
    // and a twice-a-month summer service (in arrears) for every fifth.
    const base = {
      clientId,
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
      // This month's service is dated today until its day comes, so the demo has this month's charges
      // and invoices on any day (on the 1st too), not only after the cycle day.
      const cycleDay = dayOfMonth(monthsAgo, Math.min(demo.normalCycle, 28), now);
      const serviceDay = cycleDay > now ? now : cycleDay;
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
  return plans;
}
