import { sql } from "drizzle-orm";
import fc from "fast-check";
import { amountDueNow, autopayChargeDate, statementDue, statementDueDay } from "@cyclebill/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { DatabaseHandle } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt } from "../../db/row-schemas.js";
import { openTestDatabase } from "../../test-support/test-database.js";
import { amountDueNowSql, statementDueDateSql } from "./amount-due.sql.js";

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

const day = fc
  .integer({ min: 0, max: 3000 })
  .map((n) => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
const dueRow = z.object({ i: dbInt, due: dbDate.nullable() });
const dueCase = fc.record({
  statementDate: day,
  newBalance: fc.oneof(cents, fc.constant("0.00")),
  dueDays: fc.constantFrom(0, 10, 30),
  recorded: fc.option(day, { nil: null }),
  autopayNow: fc.boolean(),
});

describe("statementDueDateSql", () => {
  // Issue 41: the documents list showed the due date of terms where the autopay PDF printed its charge day.
  it("matches the domain's statementDue, as the statement PDF prints it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(dueCase, { minLength: 1, maxLength: 50 }), async (cases) => {
        const values = sql.join(
          cases.map(
            (c, index) =>
              sql`(${index}::int, ${c.statementDate}::date, ${c.newBalance}::numeric, ${c.dueDays}::int, ${c.recorded}::date, ${c.autopayNow}::boolean)`,
          ),
          sql`, `,
        );
        const rows = await queryRows(
          database.db,
          sql`select v.i, ${statementDueDateSql({
            statementDate: sql`v.sd`,
            newBalance: sql`v.nb`,
            dueDays: sql`v.dd`,
            recordedChargeDate: sql`v.rec`,
            autopayNow: sql`v.ap`,
          })}::text as due
              from (values ${values}) as v(i, sd, nb, dd, rec, ap) order by v.i`,
          dueRow,
        );
        expect(rows.map((row) => row.due)).toEqual(
          cases.map((c) =>
            statementDueDay(
              statementDue({
                statementDate: c.statementDate,
                newBalance: c.newBalance,
                dueDays: c.dueDays,
                autopayChargeDate:
                  c.recorded ?? (c.autopayNow ? autopayChargeDate(c.statementDate, c.dueDays) : null),
              }),
            ),
          ),
        );
      }),
      { seed: 4107, numRuns: 40 },
    );
  });
});
