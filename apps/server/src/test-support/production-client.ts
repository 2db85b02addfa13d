import { businessToday } from "../clock.js";
import { codes, clients, customers, recurringCharges } from "../db/tables.js";
import type { Database } from "../db/database.js";
import { TEST_MAILING_ADDRESS } from "./mailing-address.js";

export type ProductionClient = { clientId: number; codeId: number; customerIds: number[] };

/**
 * A client billed on `cycle` whose customers each have a monthly recurring charge of 20.00 (code
 * 100), for the tests that run its production; `client` adds fields (e.g. late-fee rates).
 */
export async function createProductionClient(
  db: Database,
  options: {
    clientNo: number;
    cycle: number;
    dateLastBilling: string;
    customers: number;
    client?: Partial<typeof clients.$inferInsert>;
  },
): Promise<ProductionClient> {
  const [client] = await db
    .insert(clients)
    .values({
      clientNo: options.clientNo,
      clientName: `Production client ${options.clientNo}`,
      normalCycle: options.cycle,
      dateLastBilling: options.dateLastBilling,
      ...options.client,
    })
    .returning({ id: clients.id });
  if (!client) throw new Error("client not created");
  const [code] = await db
    .insert(codes)
    .values({ clientId: client.id, code: 100, description: "Service", codeType: "charge" })
    .returning({ id: codes.id });
  if (!code) throw new Error("code not created");
  const customerIds: number[] = [];
  // In batches: one insert of 10,000 rows would pass PostgreSQL's limit of bound parameters.
  for (let start = 0; start < options.customers; start += 2_000) {
    const rows = await db
      .insert(customers)
      .values(
        Array.from({ length: Math.min(2_000, options.customers - start) }, (_, index) => ({
          clientId: client.id,
          customerNo: start + index + 1,
          customerName: `Customer ${start + index + 1}`,
          openDate: businessToday(),
          ...TEST_MAILING_ADDRESS,
        })),
      )
      .returning({ id: customers.id });
    customerIds.push(...rows.map((row) => row.id));
    await db.insert(recurringCharges).values(
      rows.map((row) => ({
        clientId: client.id,
        customerId: row.id,
        codeId: code.id,
        description: "Monthly service",
        rate: "20.00000",
        quantity: "1",
        amount: "20.00",
        startMonth: 1,
        endMonth: 12,
      })),
    );
  }
  return { clientId: client.id, codeId: code.id, customerIds: customerIds.sort((a, b) => a - b) };
}
