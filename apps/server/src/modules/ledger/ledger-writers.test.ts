import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Only the ledger module writes ledger entries and the figures kept beside them. This test reads
// the server's source and fails when any other file does, so a fifth copy can never creep back.

const serverSource = path.resolve(import.meta.dirname, "../..");
const ledgerModule = path.join(serverSource, "modules", "ledger");

const FIGURE_FIELDS = [
  "totalBalance",
  "ledgerEntries",
  "ledgerAmountTotal",
  "mtdCharges",
  "mtdPayments",
  "mtdCrAdj",
  "mtdDbAdj",
  "lastPayDate",
  "previousBalance",
];
const FIGURE_COLUMNS = [
  "total_balance",
  "ledger_entries",
  "ledger_amount_total",
  "mtd_charges",
  "mtd_payments",
  "mtd_cr_adj",
  "mtd_db_adj",
  "last_pay_date",
  "previous_balance",
];

/** Every way a file can write the ledger table or a customer's ledger figures, with what it found. */
function ledgerWrites(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/\.(insert|update|delete)\(\s*transactions\s*\)/g))
    found.push(match[0]);
  for (const match of source.matchAll(/\b(insert\s+into|update|delete\s+from)\s+transactions\b/gi))
    found.push(match[0]);
  // Drizzle writes of customers: the part up to the where clause (or the end of the statement).
  for (const match of source.matchAll(
    /\.(update|insert)\(\s*customers\s*\)([\s\S]*?)(\.where\(|\.returning\(|;)/g,
  )) {
    const written = FIGURE_FIELDS.filter((field) => new RegExp(`\\b${field}\\s*:`).test(match[2] ?? ""));
    if (written.length > 0) found.push(`${match[0].split("(")[0]}(customers) sets ${written.join(", ")}`);
  }
  // SQL writes of customers: the set list up to its where.
  for (const match of source.matchAll(/\bupdate\s+customers\b([\s\S]*?)\bwhere\b/gi)) {
    const written = FIGURE_COLUMNS.filter((column) => new RegExp(`\\b${column}\\s*=`).test(match[1] ?? ""));
    if (written.length > 0) found.push(`update customers sets ${written.join(", ")}`);
  }
  return found;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return full === ledgerModule ? [] : sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("the one ledger writer", () => {
  it("recognises every shape of a ledger write", () => {
    expect(ledgerWrites("await tx.insert(transactions).values(row)")).toHaveLength(1);
    expect(ledgerWrites("tx.update(transactions).set({ voided: true })")).toHaveLength(1);
    expect(ledgerWrites("sql`delete from transactions where id = 1`")).toHaveLength(1);
    expect(ledgerWrites("sql`update customers set total_balance = 0 where id = 1`")).toEqual([
      "update customers sets total_balance",
    ]);
    expect(ledgerWrites("tx.update(customers).set({ mtdCharges: '0', lastPayDate: null }).where(x)")).toEqual(
      [".update(customers) sets mtdCharges, lastPayDate"],
    );
    // Writing a customer's own fields is not a ledger write.
    expect(ledgerWrites("tx.update(customers).set({ deleteFlag, updatedAt: new Date() }).where(x)")).toEqual(
      [],
    );
  });

  it("is the ledger module: no other server file writes entries or balance figures", () => {
    const offenders = sourceFiles(serverSource).flatMap((file) =>
      ledgerWrites(readFileSync(file, "utf8")).map(
        (write) => `${path.relative(serverSource, file)}: ${write}`,
      ),
    );
    expect(offenders).toEqual([]);
  });
});
