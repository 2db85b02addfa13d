import { count, eq } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { clients, customers, statements } from "../../db/tables.js";
import { ledgerMismatches, type LedgerMismatch } from "./ledger-mismatches.js";
import {
  formatStatementMismatch,
  statementMismatches,
  type StatementMismatch,
} from "./statement-mismatches.js";

export type DoctorReport =
  | { kind: "unknown_client"; clientNo: number }
  | {
      kind: "checked";
      scope: string;
      customersChecked: number;
      mismatches: LedgerMismatch[];
      statementsChecked: number;
      statementMismatches: StatementMismatch[];
    };

/**
 * Proves the books for every client, or one client by its number: each customer's balance equals
 * the sum of its ledger, and its tallies (entries, sum of amounts) equal its entries; and every
 * issued statement proves itself (statementMismatches).
 */
export async function runDoctor(db: Database, clientNo?: number): Promise<DoctorReport> {
  let clientId: number | undefined;
  let scope = "all clients";
  if (clientNo !== undefined) {
    const [client] = await db
      .select({ id: clients.id, name: clients.clientName })
      .from(clients)
      .where(eq(clients.clientNo, clientNo))
      .limit(1);
    if (!client) return { kind: "unknown_client", clientNo };
    clientId = client.id;
    scope = `client ${clientNo} (${client.name})`;
  }
  const [checked] = await db
    .select({ customers: count() })
    .from(customers)
    .where(clientId === undefined ? undefined : eq(customers.clientId, clientId));
  const mismatches = await ledgerMismatches(db, clientId === undefined ? {} : { clientId });
  const [issued] = await db
    .select({ statements: count() })
    .from(statements)
    .where(clientId === undefined ? undefined : eq(statements.clientId, clientId));
  const wrong = await statementMismatches(db, clientId === undefined ? {} : { clientId });
  return {
    kind: "checked",
    scope,
    customersChecked: checked?.customers ?? 0,
    mismatches,
    statementsChecked: issued?.statements ?? 0,
    statementMismatches: wrong,
  };
}

/** The report as an operator reads it; one line per customer whose figures disagree with its ledger. */
export function formatDoctorReport(report: DoctorReport): string {
  if (report.kind === "unknown_client") return `No client has the number ${report.clientNo}.`;
  const statementsLine =
    report.statementMismatches.length === 0
      ? `${report.statementsChecked} statements checked, each adds up and equals its period's ledger.`
      : [
          `${report.statementMismatches.length} of ${report.statementsChecked} statements do not prove themselves:`,
          ...report.statementMismatches.map(formatStatementMismatch),
        ].join("\n");
  if (report.mismatches.length === 0)
    return `The books balance: ${report.customersChecked} customers of ${report.scope} checked, every balance equals its ledger.\n${statementsLine}`;
  const lines = report.mismatches.map(
    (m) =>
      `client ${m.clientId} customer ${m.customerId}: balance ${m.totalBalance} vs ledger ${m.ledgerSum}; ` +
      `entries ${m.ledgerEntries} vs ${m.entryCount}; amount total ${m.ledgerAmountTotal} vs ${m.amountSum}`,
  );
  return [
    `${report.mismatches.length} of ${report.customersChecked} customers of ${report.scope} disagree with their ledger:`,
    ...lines,
    statementsLine,
  ].join("\n");
}
