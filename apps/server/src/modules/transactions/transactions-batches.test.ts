import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DUPLICATE_WINDOW_HOURS, addAmounts } from "@cyclebill/domain";
import { businessToday, currentClock, setClock } from "../../clock.js";
import { customers, routePlans, routes } from "../../db/tables.js";
import {
  balanceOf,
  code,
  customerIds,
  fixture,
  staff,
  testApp,
  useTransactionWorld,
} from "../../test-support/transaction-world.js";
import type { Entry } from "../../test-support/transaction-world.js";

useTransactionWorld();

describe("group and bulk batches", () => {
  it("posts to the standard members of a group in one batch, and to all customers in bulk", async () => {
    const [group] = await testApp.db
      .insert(routes)
      .values({ clientId: fixture.a.clientId, routeName: "Batch route" })
      .returning();
    await testApp.db.insert(routePlans).values([
      { clientId: fixture.a.clientId, routeId: group!.id, customerId: customerIds[0]!, stop: 0 },
      {
        clientId: fixture.a.clientId,
        routeId: group!.id,
        customerId: customerIds[1]!,
        stop: 1,
        billIndicatorFlag: "skip",
      },
      { clientId: fixture.a.clientId, routeId: group!.id, customerId: customerIds[3]!, stop: 2 },
    ]);
    const before = await balanceOf(customerIds[0]!);
    const batch = await staff.post("/api/transactionsroutes/", {
      route: group!.id,
      code: code.charge,
      amount: "15.25",
      service_date: "2026-11-20",
      transaction_type: "route",
    });
    expect(batch.status).toBe(201);
    expect(batch.body).toMatchObject({
      count: 2,
      total: "30.50",
      route_name: "Batch route",
      transaction_type: "route",
    });
    expect(await balanceOf(customerIds[0]!)).toBe(addAmounts(before, "15.25"));
    expect(
      (
        await staff.post("/api/transactionsroutes/", {
          route: group!.id,
          amount: "1",
          transaction_type: "route",
        })
      ).body,
    ).toEqual({
      code: ["You must fill in a group code."],
    });
    const bulk = await staff.post("/api/transactionsroutes/", {
      customers: [customerIds[3], customerIds[4]],
      code: code.credit,
      amount: "1",
      transaction_type: "bulk",
    });
    expect(bulk.body).toMatchObject({ count: 2, total: "2.00" });
    // A list longer than PostgreSQL's 65,535 parameters goes as one array; a customer named twice
    // posts once (forced: the same entries were just posted above).
    const large = await staff.post("/api/transactionsroutes/", {
      customers: [customerIds[3], ...Array.from({ length: 70_000 }, () => customerIds[4])],
      code: code.credit,
      amount: "1",
      transaction_type: "bulk",
      force: true,
    });
    expect(large.body).toMatchObject({ count: 2, total: "2.00" });
  });

  it("answers 404 to a batch naming another client's customer or no customer, and posts nothing", async () => {
    const [foreign] = await testApp.db
      .insert(customers)
      .values({ clientId: fixture.b.clientId, customerNo: 9301, customerName: "Other client's customer" })
      .returning({ id: customers.id });
    const before = await balanceOf(customerIds[3]!);
    const batch = (named: Record<string, unknown>) =>
      staff.post("/api/transactionsroutes/", {
        code: code.credit,
        amount: "1",
        transaction_type: "bulk",
        ...named,
      });
    const notFound = { status: 404, body: { detail: "Not found." } };
    expect(await batch({ customers: [customerIds[3], foreign!.id] })).toMatchObject(notFound);
    expect(await batch({ customers: [customerIds[3], 10_000_000] })).toMatchObject(notFound);
    expect(
      await batch({
        customers: [customerIds[3]],
        customer_amounts: [{ customer: foreign!.id, amount: "5" }],
      }),
    ).toMatchObject(notFound);
    expect(await balanceOf(customerIds[3]!)).toBe(before);
    const [untouched] = await testApp.db
      .select({ balance: customers.totalBalance })
      .from(customers)
      .where(eq(customers.id, foreign!.id));
    expect(Number(untouched?.balance)).toBe(0);
  });

  it("names every customer a group batch leaves out, archived ones included, with the reason", async () => {
    const [archived, marked, fine] = await testApp.db
      .insert(customers)
      .values([
        { clientId: fixture.a.clientId, customerNo: 901, customerName: "Archived Member" },
        { clientId: fixture.a.clientId, customerNo: 902, customerName: "Marked Member", deleteFlag: "D" },
        { clientId: fixture.a.clientId, customerNo: 903, customerName: "Plain Member" },
      ])
      .returning({ id: customers.id });
    // Archived through the API, as a clerk does (a new customer has a zero balance).
    expect((await staff.delete(`/api/customers/${archived!.id}/`)).status).toBe(204);
    const [group] = await testApp.db
      .insert(routes)
      .values({ clientId: fixture.a.clientId, routeName: "Refusing route" })
      .returning();
    await testApp.db.insert(routePlans).values(
      [archived!, marked!, fine!].map((member, stop) => ({
        clientId: fixture.a.clientId,
        routeId: group!.id,
        customerId: member.id,
        stop,
      })),
    );
    const batch = await staff.post("/api/transactionsroutes/", {
      route: group!.id,
      code: code.charge,
      amount: "5",
      service_date: "2026-11-20",
      transaction_type: "route",
    });
    expect(batch.status).toBe(201);
    expect(batch.body).toMatchObject({ count: 1, total: "5.00", skipped: 2 });
    expect((batch.body as { refused: unknown[] }).refused).toEqual([
      { customer: archived!.id, customer_no: 901, customer_name: "Archived Member", reason: "archived" },
      {
        customer: marked!.id,
        customer_no: 902,
        customer_name: "Marked Member",
        reason: "marked_for_deletion",
      },
    ]);
  });

  it("refuses the same batch again within the duplicate window, naming who has it, unless forced", async () => {
    const members = await testApp.db
      .insert(customers)
      .values(
        ["Twice Ann", "Twice Ben", "Twice Cal"].map((customerName, index) => ({
          clientId: fixture.a.clientId,
          customerNo: 911 + index,
          customerName,
        })),
      )
      .returning({ id: customers.id });
    const [group] = await testApp.db
      .insert(routes)
      .values({ clientId: fixture.a.clientId, routeName: "Twice route" })
      .returning();
    await testApp.db.insert(routePlans).values(
      members.map((member, stop) => ({
        clientId: fixture.a.clientId,
        routeId: group!.id,
        customerId: member.id,
        stop,
      })),
    );
    const ids = members.map((member) => member.id);
    const balances = async () => Promise.all(ids.map((id) => balanceOf(id)));
    // Today's date (the app clock's), named: the clock moves a day on below.
    const day = businessToday();
    const batch = (extra: Record<string, unknown> = {}) =>
      staff.post("/api/transactionsroutes/", {
        route: group!.id,
        code: code.charge,
        amount: "12.00",
        service_date: day,
        transaction_type: "route",
        ...extra,
      });
    const first = await batch();
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ count: 3, total: "36.00" });
    const after = await balances();

    // The second press: refused, every member named, nothing posted.
    const again = await batch();
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      non_field_errors: [
        "Duplicate Transaction Detected",
        "3 customers already have this entry (same code, amount and date of service) from the last 24 hours: " +
          "911 Twice Ann, 912 Twice Ben, 913 Twice Cal. Nothing was added. Add it again only if it is meant twice.",
      ],
      duplicates: [
        { customer: ids[0], customer_no: 911, customer_name: "Twice Ann" },
        { customer: ids[1], customer_no: 912, customer_name: "Twice Ben" },
        { customer: ids[2], customer_no: 913, customer_name: "Twice Cal" },
      ],
    });
    expect(await balances()).toEqual(after);

    // One member priced differently is no duplicate; the two others still are, and nothing posts.
    const partly = await batch({ customer_amounts: [{ customer: ids[1], amount: "13.00" }] });
    expect(partly.status).toBe(400);
    expect((partly.body as { duplicates: { customer: number }[] }).duplicates.map((d) => d.customer)).toEqual(
      [ids[0], ids[2]],
    );
    expect(await balances()).toEqual(after);

    // Confirmed: it posts again.
    const forced = await batch({ force: true });
    expect(forced.status, forced.text).toBe(201);
    expect(forced.body).toMatchObject({ count: 3, total: "36.00" });
    expect(await balances()).toEqual(after.map((balance) => addAmounts(balance, "12.00")));

    // Past the window (the app clock a day on) the same batch is no duplicate: it posts.
    const realClock = currentClock();
    const start = realClock.now().getTime();
    setClock({ now: () => new Date(start + (DUPLICATE_WINDOW_HOURS * 3600 + 60) * 1000) });
    try {
      const later = await batch();
      expect(later.status, later.text).toBe(201);
    } finally {
      setClock(realClock);
    }
  });

  it("prices rows one by one when the screen sends per-customer amounts", async () => {
    const [group] = await testApp.db
      .insert(routes)
      .values({ clientId: fixture.a.clientId, routeName: "Priced route" })
      .returning();
    await testApp.db.insert(routePlans).values([
      { clientId: fixture.a.clientId, routeId: group!.id, customerId: customerIds[4]!, stop: 0 },
      { clientId: fixture.a.clientId, routeId: group!.id, customerId: customerIds[5]!, stop: 1 },
    ]);
    const before = [await balanceOf(customerIds[4]!), await balanceOf(customerIds[5]!)];
    const batch = await staff.post("/api/transactionsroutes/", {
      route: group!.id,
      customers: [customerIds[4], customerIds[5]],
      customer_amounts: [{ customer: customerIds[5], amount: "7.5", quantity: "3" }],
      code: code.charge,
      amount: "10.00",
      quantity: "2",
      unitofmeasure: 2,
      // A date no other test posts on, so the filter below finds only this batch's entry.
      service_date: "2021-03-15",
      transaction_type: "route",
    });
    expect(batch.status, batch.text).toBe(201);
    expect(batch.body).toMatchObject({ count: 2, total: "42.50", route_name: "Priced route" });
    expect(await balanceOf(customerIds[4]!)).toBe(addAmounts(before[0]!, "20.00"));
    expect(await balanceOf(customerIds[5]!)).toBe(addAmounts(before[1]!, "22.50"));
    const posted = (
      await staff.get(
        `/api/transactions/?customer__id=${customerIds[5]}&serviceDate__gte=2021-03-15&serviceDate__lte=2021-03-15`,
      )
    ).body as { count: number; results: Entry[] };
    expect(posted.count).toBe(1);
    expect(posted.results[0]).toMatchObject({ rate: "7.50000", amount: "22.50", unitofmeasure: 2 });
    expect(
      (
        await staff.post("/api/transactionsroutes/", {
          route: group!.id,
          code: code.charge,
          amount: "1",
          unitofmeasure: 999_999,
          transaction_type: "route",
        })
      ).status,
    ).toBe(400);
  });
});
