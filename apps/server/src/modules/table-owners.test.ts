import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every table has one module that alone inserts, updates or deletes its rows; other modules call
// that module's functions. This test reads the server's source (drizzle writes by table object,
// SQL writes by table name, and the generic tenant resources by the table they are declared for)
// and fails when a write of a table turns up outside its owner. ledger-writers.test.ts keeps the
// ledger's own columns (the balances kept beside the ledger) to the ledger module.

const serverSource = path.resolve(import.meta.dirname, "..");
const schemaDirectory = path.join(serverSource, "db", "schema");

/** Each table's owning module (a directory under src/modules). */
const OWNERS: Record<string, string> = {
  access_reviews: "access-review",
  audit_events: "audit",
  audit_heads: "audit",
  clients: "clients",
  closed_period_events: "ledger",
  codes: "codes",
  customer_changes: "ledger",
  customer_payment_methods: "payments",
  customers: "customers",
  cycle_runs: "production",
  production_holds: "production",
  production_schedules: "production",
  scheduled_runs: "production",
  expiring_card_notices: "payments",
  gateway_events: "gateway-events",
  gateway_reconciliations: "gateway-reconcile",
  invoices: "invoices",
  job_run_chunks: "jobs",
  job_runs: "jobs",
  passkey_challenges: "auth",
  password_reset_tokens: "auth",
  payment_attempts: "payments",
  payment_links: "payments",
  payment_receipts: "payments",
  pools: "delivery",
  production_runs: "production",
  rate_limits: "auth",
  recurring_charges: "customers",
  route_plans: "groups",
  routes: "groups",
  statement_deliveries: "delivery",
  statement_resends: "delivery",
  statements: "statements",
  stored_amounts: "customers",
  system_messages: "messages",
  transactions: "ledger",
  units_of_measure: "units",
  user_sessions: "sessions",
  user_passkeys: "auth",
  user_recovery_codes: "auth",
  user_totp_factors: "auth",
  users: "users",
  went_out: "delivery",
  work_items_handled: "work-queue",
};

/**
 * Writers besides the owner, each with why:
 * - the ledger keeps a customer's balance figures beside its entries, in the same statement that
 *   posts them (DEVELOPERS.md; ledger-writers.test.ts keeps those columns to the ledger alone);
 * - the demo seed builds a four-month history on an empty database (backdated statements and
 *   counters no live path makes); it runs once, before anyone signs in, and the doctor proves it.
 */
const ALSO_WRITTEN_BY: Record<string, Record<string, string[]>> = {
  ledger: { tables: ["customers"] },
  demo: {
    tables: [
      "clients",
      "codes",
      "customers",
      "invoices",
      "recurring_charges",
      "route_plans",
      "routes",
      "statements",
    ],
  },
};

/** The schema's tables: drizzle's object name and the SQL name. */
function schemaTables(): Map<string, string> {
  const byObject = new Map<string, string>();
  for (const file of readdirSync(schemaDirectory)) {
    const source = readFileSync(path.join(schemaDirectory, file), "utf8");
    for (const match of source.matchAll(/export const (\w+) = pgTable\(\s*"(\w+)"/g))
      byObject.set(match[1] ?? "", match[2] ?? "");
  }
  return byObject;
}

/** The tables a source file writes. */
function tablesWritten(source: string, tables: Map<string, string>): Set<string> {
  const names = new Set(tables.values());
  const written = new Set<string>();
  for (const match of source.matchAll(/\.(insert|update|delete)\(\s*(\w+)\s*\)/g)) {
    const table = tables.get(match[2] ?? "");
    if (table) written.add(table);
  }
  for (const match of source.matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+"?(\w+)"?/gi))
    if (names.has(match[1] ?? "")) written.add(match[1] ?? "");
  for (const match of source.matchAll(/TenantResource<\s*typeof\s+(\w+)/g)) {
    const table = tables.get(match[1] ?? "");
    if (table) written.add(table);
  }
  return written;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "test-support" ? [] : sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/** The module a file belongs to: its directory under modules/, or its path outside them. */
function moduleOf(file: string): string {
  const relative = path.relative(serverSource, file).split(path.sep);
  return relative[0] === "modules" ? (relative[1] ?? "") : relative.join("/");
}

describe("each table's one owning module", () => {
  const tables = schemaTables();

  it("names an owner for every table of the schema", () => {
    expect([...tables.values()].sort()).toEqual(Object.keys(OWNERS).sort());
  });

  it("recognises every shape of a write", () => {
    const found = (source: string) => [...tablesWritten(source, tables)].sort();
    expect(found("await tx.insert(codes).values(row)")).toEqual(["codes"]);
    expect(found("tx.update(statements).set({ pages: 1 })")).toEqual(["statements"]);
    expect(found("sql`delete from pools where id = 1`")).toEqual(["pools"]);
    expect(found("sql`update recurring_charges r set last_billed_on = b.d`")).toEqual(["recurring_charges"]);
    expect(found('sql`insert into "route_plans" (a) values (1)`')).toEqual(["route_plans"]);
    expect(found("const r: TenantResource<typeof routes, In, Out> = {}")).toEqual(["routes"]);
    // Reading is not writing.
    expect(found("sql`select * from customers for update`; tx.select().from(invoices)")).toEqual([]);
  });

  it("finds no write of a table outside its owner (failed before: 33 writes in 17 files, eleven tables written by a module that does not own them)", () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(serverSource)) {
      const module = moduleOf(file);
      for (const table of tablesWritten(readFileSync(file, "utf8"), tables)) {
        if (OWNERS[table] === module) continue;
        if (ALSO_WRITTEN_BY[module]?.tables?.includes(table)) continue;
        offenders.push(
          `${path.relative(serverSource, file)} writes ${table} (owner: modules/${OWNERS[table]})`,
        );
      }
    }
    expect(offenders).toEqual([]);
  });
});
