import { Readable } from "node:stream";
import { and, asc, gt } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { transactions } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { toCsv } from "../reports/report-csv.js";
import { transactionConditions, type TransactionFilters } from "./list-transactions.js";
import { selectTransactions, transactionToApi } from "./transaction-view.js";

const COLUMNS = [
  "id",
  "customer_no",
  "customer_name",
  "displayCode",
  "code_type",
  "description",
  "quantity",
  "rate",
  "amount",
  "ledger_amount",
  "serviceDate",
  "created",
  "uom",
  "transaction_status",
  "transaction_type",
  "invoice_num",
  "voided",
] as const;
const BATCH = 5000;

/** transactions.csv, streamed in id order a batch at a time, so a million rows never sit in memory. */
export function streamTransactionsCsv(
  db: Database,
  tenant: TenantContext,
  filters: TransactionFilters,
): Readable {
  const where = transactionConditions(tenant, filters);
  async function* rows(): AsyncGenerator<string> {
    yield toCsv([], COLUMNS);
    let after = 0;
    for (;;) {
      const batch = await selectTransactions(db, and(where, gt(transactions.id, after)))
        .orderBy(asc(transactions.id))
        .limit(BATCH);
      if (batch.length === 0) return;
      const lines = toCsv(batch.map(transactionToApi), COLUMNS);
      yield lines.slice(lines.indexOf("\r\n") + 2);
      after = batch[batch.length - 1]?.id ?? after;
      if (batch.length < BATCH) return;
    }
  }
  return Readable.from(rows());
}
