import { eq } from "drizzle-orm";
import type { Database } from "../db/database.js";
import { customers, transactions } from "../db/tables.js";
import { TEST_MAILING_ADDRESS } from "./mailing-address.js";

type CustomerValues = typeof customers.$inferInsert;

/** Writes a customer straight to the table, with a complete mailing address unless `values` gives one. */
export async function insertCustomer(
  db: Database,
  values: Pick<CustomerValues, "clientId" | "customerNo" | "customerName"> & Partial<CustomerValues>,
): Promise<number> {
  const [row] = await db
    .insert(customers)
    .values({ ...TEST_MAILING_ADDRESS, ...values })
    .returning({ id: customers.id });
  if (!row) throw new Error("customer not created");
  return row.id;
}

/**
 * A maker of customers one at a time, numbered on from `base` and named `${name} 1`, `${name} 2`, …,
 * with `values` (and the mailing address insertCustomer gives); `db` is read at each call.
 */
export function customerSeries(
  db: () => Database,
  base: number,
  name: string,
  values: Partial<CustomerValues> = {},
) {
  let count = 0;
  return (clientId: number): Promise<number> => {
    count += 1;
    return insertCustomer(db(), {
      clientId,
      customerNo: base + count,
      customerName: `${name} ${count}`,
      ...values,
    });
  };
}

/** Writes `count` customers numbered from `firstNo`, named `${name} 0`, `${name} 1`, …; answers their ids. */
export async function insertCustomers(
  db: Database,
  options: { clientId: number; count: number; firstNo: number; name: string },
): Promise<number[]> {
  const rows = await db
    .insert(customers)
    .values(
      Array.from({ length: options.count }, (_, index) => ({
        clientId: options.clientId,
        customerNo: options.firstNo + index,
        customerName: `${options.name} ${index}`,
      })),
    )
    .returning({ id: customers.id });
  return rows.map((row) => row.id);
}

/** A customer's balance as the table holds it. */
export async function storedBalance(db: Database, customerId: number): Promise<string> {
  const [row] = await db
    .select({ balance: customers.totalBalance })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row?.balance ?? "";
}

/** A transaction's row as the table holds it. */
export async function transactionRow(db: Database, id: number) {
  const [row] = await db.select().from(transactions).where(eq(transactions.id, id));
  return row;
}
