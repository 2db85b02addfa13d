import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { DatabaseHandle } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbInt, dbText } from "../../db/row-schemas.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { openTestDatabase } from "../../test-support/test-database.js";
import { seedDemo } from "./seed-demo.js";

// Seeded on the 1st of a month, before either demo client's cycle day: the demo still shows this
// month's charges and its open and closed invoices (the Invoices and Statements screen and its
// browser test need them on any day). Failed before: on the 1st the month had no charges, so no
// invoice of this month.
let database: DatabaseHandle;
const now = new Date("2027-12-01T15:00:00Z");

beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(database.db, { createAdmin: true, now });
}, 180_000);
afterAll(async () => database?.close());

describe("demo data seeded on the 1st of a month", () => {
  it("has this month's charges and open and closed invoices, and balanced books", async () => {
    const thisMonth = await queryRows(
      database.db,
      sql`select i.invoice_status, count(*)::int as total, min(i.invoice_date) as first
          from invoices i where i.invoice_date >= '2027-12-01' group by i.invoice_status order by 1`,
      z.object({ invoice_status: dbText, total: dbInt, first: dbDate }),
    );
    expect(thisMonth.map((row) => row.invoice_status)).toEqual(["closed", "open"]);
    expect(thisMonth.every((row) => row.total > 0 && row.first === "2027-12-01")).toBe(true);
    const [charges] = await queryRows(
      database.db,
      sql`select count(*)::int as total from transactions t join codes k on k.client_id = t.client_id
            and k.id = t.code_id where k.code_type = 'charge' and t.service_date = '2027-12-01'`,
      z.object({ total: dbInt }),
    );
    expect(charges?.total).toBeGreaterThan(0);
    expect(await ledgerMismatches(database.db)).toEqual([]);
  });
});
