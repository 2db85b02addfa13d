import { sql } from "drizzle-orm";
import fc from "fast-check";
import { amountDueNow } from "@cyclebill/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { DatabaseHandle } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbInt } from "../../db/row-schemas.js";
import { openTestDatabase } from "../../test-support/test-database.js";
import { amountDueNowSql } from "./amount-due.sql.js";

// The SQL copy of the amount-due rule (kept so the documents list sorts and filters in the database)
// answers what the domain's amountDueNow answers, on random statements, in one query per batch.

let database: DatabaseHandle;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

const cents = fc.integer({ min: -500_000, max: 500_000 }).map((n) => (n / 100).toFixed(2));
const dueRowSchema = z.object({ i: dbInt, due: dbDecimal });
const standing = fc.record({ newBalance: cents, currentBalance: cents, superseded: fc.boolean() });

describe("amountDueNowSql", () => {
  it("matches the domain's amountDueNow", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(standing, { minLength: 1, maxLength: 50 }), async (cases) => {
        const values = sql.join(
          cases.map(
            (c, index) =>
              sql`(${index}::int, ${c.newBalance}::numeric, ${c.currentBalance}::numeric, ${c.superseded}::boolean)`,
          ),
          sql`, `,
        );
        const rows = await queryRows(
          database.db,
          sql`select v.i, ${amountDueNowSql({
            newBalance: sql`v.nb`,
            currentBalance: sql`v.cb`,
            superseded: sql`v.sup`,
          })}::text as due
              from (values ${values}) as v(i, nb, cb, sup) order by v.i`,
          dueRowSchema,
        );
        expect(rows.map((row) => row.due)).toEqual(cases.map((c) => amountDueNow(c)));
      }),
      { seed: 3802, numRuns: 40 },
    );
  });
});
