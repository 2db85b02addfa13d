import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { DatabaseHandle } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbBool, dbDate, dbInt, dbText } from "../../db/row-schemas.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { openTestDatabase } from "../../test-support/test-database.js";
import { verifyPassword } from "../auth/passwords.js";
import { seedDemo, type DemoLogin } from "./seed-demo.js";

let database: DatabaseHandle;
let logins: DemoLogin[];
const now = new Date("2026-11-21T12:00:00Z");
const idRowSchema = z.object({ id: dbInt });
const totalRowSchema = z.object({ total: dbInt });

async function rows<S extends z.ZodType>(query: ReturnType<typeof sql>, row: S): Promise<z.output<S>[]> {
  return queryRows(database.db, query, row);
}

// Seeding four months of two clients' history takes over a minute on a loaded 2-core machine.
beforeAll(async () => {
  database = await openTestDatabase();
  logins = await seedDemo(database.db, { createAdmin: true, now });
}, 180_000);
afterAll(async () => database?.close());

describe("demo data", () => {
  it("creates an admin and an owner and a staff user for each of two clients, with working passwords", async () => {
    expect(logins.map((login) => [login.role, login.email])).toEqual([
      ["provider admin", "admin@cyclebill.example"],
      ["client owner", "owner@greenway.example"],
      ["client staff", "staff@greenway.example"],
      ["client owner", "owner@harborwater.example"],
      ["client staff", "staff@harborwater.example"],
    ]);
    const users = await rows(
      sql`select email, password_hash, is_admin, is_client_staff, client_id from users order by id`,
      z.object({
        email: dbText,
        password_hash: dbText,
        is_admin: dbBool,
        is_client_staff: dbBool,
        client_id: dbInt.nullable(),
      }),
    );
    for (const login of logins) {
      const user = users.find((row) => row.email === login.email);
      expect(user?.password_hash).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(user?.password_hash ?? "", login.password)).toBe(true);
    }
    expect(users.filter((user) => user.is_admin).map((user) => user.client_id)).toEqual([null]);
    expect(users.filter((user) => user.is_client_staff)).toHaveLength(2);
  });

  it("gives each client codes with negative system codes, and two groups", async () => {
    const codes = await rows(
      sql`select client_id, count(*) filter (where code < 0)::int as system, count(*)::int as total from codes group by client_id`,
      z.object({ client_id: dbInt, system: dbInt, total: dbInt }),
    );
    expect(codes).toHaveLength(2);
    for (const row of codes) {
      expect(row.system).toBeGreaterThanOrEqual(4);
      expect(row.total).toBeGreaterThan(row.system);
    }
    // Every code is named: the Codes list and the code pickers show the name.
    const unnamed = await rows(
      sql`select code from codes where trim(code_name) = ''`,
      z.object({ code: dbInt }),
    );
    expect(unnamed).toEqual([]);
    const groups = await rows(
      sql`select count(*)::int as total from routes group by client_id`,
      totalRowSchema,
    );
    expect(groups.map((row) => row.total)).toEqual([2, 2]);
  });

  it("gives each client 60 customers with varied flags, group memberships and archive states", async () => {
    const perClient = await rows(
      sql`select count(*)::int as total from customers group by client_id`,
      totalRowSchema,
    );
    expect(perClient.map((row) => row.total)).toEqual([60, 60]);
    const flags = await rows(
      sql`select distinct pull_flag from customers order by 1`,
      z.object({ pull_flag: dbText }),
    );
    expect(flags.map((row) => row.pull_flag)).toEqual(["A", "E", "L", "M", "N", "P", "T"]);
    const marks = await rows(
      sql`
      select count(*) filter (where deleted)::int as archived,
             count(*) filter (where delete_flag is not null)::int as marked,
             count(*) filter (where pull_flag in ('E', 'M') and email = '')::int as no_email_for_emailed
      from customers`,
      z.object({ archived: dbInt, marked: dbInt, no_email_for_emailed: dbInt }),
    );
    expect(marks[0]?.archived).toBeGreaterThan(0);
    expect(marks[0]?.marked).toBeGreaterThan(0);
    expect(marks[0]?.no_email_for_emailed).toBe(0);
    const members = await rows(sql`select count(*)::int as total from route_plans`, totalRowSchema);
    expect(members[0]?.total).toBe(120);
  });

  it("posts a few months of charges and payments, and every balance equals the sum of its ledger", async () => {
    const months = await rows(
      sql`select distinct to_char(service_date, 'YYYY-MM') as month from transactions order by 1`,
      z.object({ month: dbText }),
    );
    expect(months.map((row) => row.month)).toEqual(["2026-08", "2026-09", "2026-10", "2026-11"]);
    const kinds = await rows(
      sql`
      select distinct c.code_type from transactions t join codes c on c.client_id = t.client_id and c.id = t.code_id order by 1`,
      z.object({ code_type: dbText }),
    );
    expect(kinds.map((row) => row.code_type)).toEqual(["adjust", "charge", "payment"]);
    expect(await ledgerMismatches(database.db)).toEqual([]);
    const owing = await rows(
      sql`select count(*)::int as total from customers where total_balance > 0`,
      totalRowSchema,
    );
    expect(owing[0]?.total).toBeGreaterThan(10);
  });

  it("closes each past month with a statement per customer, made in date order from the ledger", async () => {
    const runs = await rows(
      sql`
      select client_id, statement_date::text as statement_date, count(*)::int as total,
             min(created_at)::date::text as created
      from statements group by client_id, statement_date order by client_id, statement_date`,
      z.object({ client_id: dbInt, statement_date: dbDate, total: dbInt, created: dbDate }),
    );
    expect(runs.map((run) => [run.statement_date, run.total, run.created])).toEqual([
      ["2026-08-31", 58, "2026-09-01"],
      ["2026-09-30", 58, "2026-10-01"],
      ["2026-10-31", 58, "2026-11-01"],
      ["2026-08-31", 58, "2026-09-01"],
      ["2026-09-30", 58, "2026-10-01"],
      ["2026-10-31", 58, "2026-11-01"],
    ]);
    // Each statement's new balance is the ledger up to its date, and the next one starts from it.
    const wrong = await rows(
      sql`
      select s.id from statements s
      where s.new_balance <> coalesce((select sum(t.ledger_amount) from transactions t
          where t.client_id = s.client_id and t.customer_id = s.customer_id and t.service_date <= s.statement_date), 0)
         or s.previous_balance <> coalesce((select p.new_balance from statements p
          where p.client_id = s.client_id and p.customer_id = s.customer_id and p.statement_date < s.statement_date
          order by p.statement_date desc limit 1), 0)`,
      idRowSchema,
    );
    expect(wrong).toEqual([]);
    const unbilled = await rows(
      sql`
      select count(*)::int as total from transactions where statement_id is null and service_date <= '2026-10-31'`,
      totalRowSchema,
    );
    expect(unbilled[0]?.total).toBe(0);
    const current = await rows(
      sql`
      select c.id from customers c
      where not c.deleted and c.previous_balance <> (select s.new_balance from statements s
        where s.client_id = c.client_id and s.customer_id = c.id order by s.statement_date desc limit 1)`,
      idRowSchema,
    );
    expect(current).toEqual([]);
    const numbers = await rows(
      sql`
      select count(distinct statement_num)::int as total, max(statement_num)::int as top from statements group by client_id`,
      z.object({ total: dbInt, top: dbInt }),
    );
    expect(numbers).toEqual([
      { total: 174, top: 174 },
      { total: 174, top: 174 },
    ]);
  });

  it("records the last cycle's bills on each client as a run would: its usage and the year's bills sent", async () => {
    // The counts Account Totals and the Rates tab read: the last run's statements by delivery and the
    // fiscal year's bills sent (fiscal year from January: the three month-end runs).
    const found = await rows(
      sql`
      select c.id as client_id,
             concat_ws(' ', c.number_mailed_bills, c.number_emailed_bills, c.number_pulled_bills,
                       c.number_bills_sent_ytd) as counts,
             concat_ws(' ',
               (select count(*) from statements s where s.client_id = c.id and s.statement_date = c.date_last_billing
                  and s.delivery in ('mail', 'both')),
               (select count(*) from statements s where s.client_id = c.id and s.statement_date = c.date_last_billing
                  and s.delivery in ('email', 'both')),
               (select count(*) from statements s where s.client_id = c.id and s.statement_date = c.date_last_billing
                  and s.delivery = 'pulled'),
               (select count(*) from statements s where s.client_id = c.id and s.delivery <> 'pulled')) as expected
      from clients c where c.date_last_billing is not null order by c.id`,
      z.object({ client_id: dbInt, counts: dbText, expected: dbText }),
    );
    expect(found).toHaveLength(2);
    for (const client of found) {
      expect(client.counts).toBe(client.expected);
      expect(client.counts).not.toMatch(/^0 0 0/);
    }
  });

  it("has invoices of every status: sent ones carried by a statement, open and closed ones this month", async () => {
    const byStatus = await rows(
      sql`
      select i.invoice_status, count(*)::int as total, count(i.statement_id)::int as on_statement,
             count(*) filter (where not exists (select 1 from transactions t
               where t.client_id = i.client_id and t.invoice_id = i.id))::int as empty
      from invoices i group by i.invoice_status order by 1`,
      z.object({ invoice_status: dbText, total: dbInt, on_statement: dbInt, empty: dbInt }),
    );
    expect(byStatus).toEqual([
      { invoice_status: "closed", total: 6, on_statement: 0, empty: 0 },
      { invoice_status: "open", total: 6, on_statement: 0, empty: 0 },
      { invoice_status: "processed", total: 24, on_statement: 24, empty: 0 },
    ]);
    // An invoice's entries went out on the statement that carried it.
    const astray = await rows(
      sql`
      select t.id from transactions t join invoices i on i.client_id = t.client_id and i.id = t.invoice_id
      where t.statement_id is distinct from i.statement_id or t.transaction_status <> 'attached'`,
      idRowSchema,
    );
    expect(astray).toEqual([]);
    expect(await ledgerMismatches(database.db)).toEqual([]);
  });

  it("counts only this month's postings in the month-to-date figures", async () => {
    const mismatches = await rows(
      sql`
      select c.id from customers c
      where c.mtd_charges <> coalesce((select sum(t.amount) from transactions t join codes k on k.client_id = t.client_id and k.id = t.code_id
        where t.client_id = c.client_id and t.customer_id = c.id and k.code_type = 'charge' and t.service_date >= '2026-11-01'), 0)`,
      idRowSchema,
    );
    expect(mismatches).toEqual([]);
  });
});
