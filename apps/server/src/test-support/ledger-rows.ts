import type { Database } from "../db/database.js";
import type { recurringCharges } from "../db/tables.js";
import { postEntries, type NewLedgerEntry } from "../modules/ledger/post-entries.js";
import { postTransaction } from "../modules/transactions/post-transaction.js";

/** A charge of `rate` (quantity 1) on `serviceDate`, as the ledger writer takes it. */
export function serviceCharge(
  customerId: number,
  codeId: number,
  rate: string,
  serviceDate: string,
  description = "Service",
): NewLedgerEntry {
  return { customerId, codeId, codeType: "charge", description, rate, quantity: "1", serviceDate };
}

/** Posts one client's entries through the ledger writer, in one transaction. */
export async function postInOneTransaction(
  db: Database,
  clientId: number,
  entries: readonly NewLedgerEntry[],
): Promise<void> {
  await db.transaction((tx) => postEntries(tx, { clientId }, entries));
}

/** A recurring charge of `amount` (quantity 1) every month of the year; `fields` adds or changes. */
export function monthlyCharge(
  owner: { clientId: number; customerId: number; codeId: number },
  amount: string,
  fields: Partial<typeof recurringCharges.$inferInsert> = {},
): typeof recurringCharges.$inferInsert {
  return {
    ...owner,
    description: "Monthly service",
    rate: `${amount}000`,
    quantity: "1",
    amount,
    startMonth: 1,
    endMonth: 12,
    ...fields,
  };
}

/** Posts, as the transaction form does, an entry of the code of `kind` (described "`kind` entry"). */
export function postOfKind<K extends string>(
  db: Database,
  clientId: number,
  codeIds: Record<K, number>,
  entry: { customerId: number; kind: K; rate: string; serviceDate: string },
) {
  return postTransaction(
    db,
    { clientId },
    {
      customerId: entry.customerId,
      codeId: codeIds[entry.kind],
      description: `${entry.kind} entry`,
      rate: entry.rate,
      serviceDate: entry.serviceDate,
    },
  );
}
