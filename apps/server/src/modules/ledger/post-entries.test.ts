import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import type { DatabaseHandle } from "../../db/database.js";
import { clients, codes, customers, transactions } from "../../db/tables.js";
import { openTestDatabase } from "../../test-support/test-database.js";
import { changeEntries } from "./change-entries.js";
import { ledgerMismatches } from "./ledger-mismatches.js";
import { postEntries, type NewLedgerEntry } from "./post-entries.js";
import { removeEntries } from "./remove-entries.js";

// The ledger writer against a real database (PGlite, or PostgreSQL with TEST_DB=postgres).

let database: DatabaseHandle;
let clientId: number;
let charge: number;
let payment: number;
let ids: number[];

beforeAll(async () => {
  database = await openTestDatabase();
  const [client] = await database.db
    .insert(clients)
    .values({
      clientNo: 4242,
      clientName: "Writer",
      address1: "1 St",
      city: "Austin",
      state: "TX",
      zip: "73301",
    })
    .returning();
  clientId = client!.id;
  const made = await database.db
    .insert(codes)
    .values([
      { clientId, code: 100, description: "Service", codeType: "charge" },
      { clientId, code: 200, description: "Payment", codeType: "payment" },
    ])
    .returning();
  charge = made[0]!.id;
  payment = made[1]!.id;
  const rows = await database.db
    .insert(customers)
    .values(
      Array.from({ length: 4 }, (_, index) => ({
        clientId,
        customerNo: index + 1,
        customerName: `C${index}`,
      })),
    )
    .returning({ id: customers.id });
  ids = rows.map((row) => row.id);
});
afterAll(async () => database?.close());

const entry = (customerId: number, overrides: Partial<NewLedgerEntry> = {}): NewLedgerEntry => ({
  customerId,
  codeId: charge,
  codeType: "charge",
  description: "Service",
  rate: "10.00000",
  quantity: "1.00000",
  serviceDate: "2026-03-01",
  ...overrides,
});

async function figures(customerId: number) {
  const [row] = await database.db.select().from(customers).where(eq(customers.id, customerId));
  return row!;
}

describe("postEntries", () => {
  it("posts many entries for many customers in one call and moves every figure", async () => {
    const tricky = 'He said "hi", {braces}, back\\slash, NULL';
    const result = await database.db.transaction((tx) =>
      postEntries(tx, { clientId }, [
        entry(ids[0]!, { description: tricky }),
        entry(ids[0]!, { rate: "2.50000", quantity: "3.00000" }),
        entry(ids[1]!),
        entry(ids[1]!, { codeId: payment, codeType: "payment", rate: "4.00000", serviceDate: "2026-03-05" }),
      ]),
    );
    expect(result.ids.every((id) => typeof id === "number")).toBe(true);
    expect(result.total).toBe("31.50");
    const [first] = await database.db.select().from(transactions).where(eq(transactions.id, result.ids[0]!));
    expect(first?.description).toBe(tricky);
    expect(await figures(ids[0]!)).toMatchObject({
      totalBalance: "17.50",
      ledgerEntries: 2,
      mtdCharges: "17.50",
      lastPayDate: null,
    });
    expect(await figures(ids[1]!)).toMatchObject({
      totalBalance: "6.00",
      mtdCharges: "10.00",
      mtdPayments: "4.00",
      lastPayDate: "2026-03-05",
    });
    expect(await ledgerMismatches(database.db, { clientId })).toEqual([]);
  });

  it("refuses, or skips and names, what the posting rules refuse; archives at zero", async () => {
    await database.db.update(customers).set({ deleteFlag: "D" }).where(eq(customers.id, ids[1]!));
    await database.db.update(customers).set({ deleted: true }).where(eq(customers.id, ids[2]!));
    await expect(
      database.db.transaction((tx) => postEntries(tx, { clientId }, [entry(ids[0]!), entry(ids[1]!)])),
    ).rejects.toMatchObject({
      status: 400,
      body: { non_field_errors: ["Customer is marked for deletion and cannot accept charge transactions."] },
    });
    // Nothing of the refused call was written.
    expect((await figures(ids[0]!)).ledgerEntries).toBe(2);
    const skipped = await database.db.transaction((tx) =>
      postEntries(
        tx,
        { clientId },
        [
          entry(ids[0]!),
          entry(ids[1]!),
          entry(ids[2]!),
          entry(ids[1]!, { codeId: payment, codeType: "payment", rate: "6.00000" }),
        ],
        "skip",
      ),
    );
    expect(skipped.refused).toEqual([
      { index: 1, customerId: ids[1], reason: "marked_for_deletion" },
      { index: 2, customerId: ids[2], reason: "archived" },
    ]);
    expect(skipped.ids[1]).toBeNull();
    // The payment brought the marked customer to zero: archived by the rule, and said so.
    expect(skipped.archived).toEqual([ids[1]]);
    expect(await figures(ids[1]!)).toMatchObject({ totalBalance: "0.00", deleted: true });
    expect(await ledgerMismatches(database.db, { clientId })).toEqual([]);
  });

  it("moves entries between customers and removes them, figures following", async () => {
    const posted = await database.db.transaction((tx) =>
      postEntries(tx, { clientId }, [entry(ids[3]!, { rate: "7.00000" })]),
    );
    const id = posted.ids[0]!;
    await database.db.transaction((tx) =>
      changeEntries(tx, { clientId }, [
        {
          id,
          customerId: ids[0]!,
          codeId: charge,
          codeType: "charge",
          description: "Moved",
          rate: "8.00000",
          quantity: "2.00000",
          serviceDate: "2026-03-02",
          unitOfMeasureId: 1,
        },
      ]),
    );
    expect(await figures(ids[3]!)).toMatchObject({
      totalBalance: "0.00",
      ledgerEntries: 0,
      mtdCharges: "0.00",
    });
    expect((await figures(ids[0]!)).totalBalance).toBe("43.50");
    expect(await database.db.transaction((tx) => removeEntries(tx, { clientId }, [id]))).toBe(1);
    expect((await figures(ids[0]!)).totalBalance).toBe("27.50");
    const left = await database.db
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(eq(transactions.clientId, clientId), inArray(transactions.id, [id])));
    expect(left).toEqual([]);
    expect(await ledgerMismatches(database.db, { clientId })).toEqual([]);
  });
});
