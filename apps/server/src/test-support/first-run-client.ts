import type { Database } from "../db/database.js";
import { clients, recurringCharges } from "../db/tables.js";
import { monthlyCharge } from "./ledger-rows.js";
import { createCodes } from "./test-codes.js";
import { insertCustomer } from "./test-customers.js";

export type FirstRunClient = {
  clientId: number;
  /** A customer `C{no}` opened on `openDate`, billed a monthly 25.00 created on `createdAt` (that day by default). */
  add: (no: number, openDate: string, createdAt?: string, arrears?: boolean) => Promise<number>;
};

/**
 * A client that has never had a run, billed on `cycle` since `started` (its start date), with the
 * charge code 100: the first-run (no back-billing, catch-up) tests' client.
 */
export async function createFirstRunClient(
  db: Database,
  options: { clientNo: number; cycle: number; started: string; clientName?: string },
): Promise<FirstRunClient> {
  const [client] = await db
    .insert(clients)
    .values({
      clientNo: options.clientNo,
      clientName: options.clientName ?? `First run ${options.clientNo}`,
      normalCycle: options.cycle,
      clientStartDate: options.started,
    })
    .returning({ id: clients.id });
  if (!client) throw new Error("client not created");
  const clientId = client.id;
  const { charge: codeId } = await createCodes(db, clientId, { charge: "charge" });
  return {
    clientId,
    add: async (no, openDate, createdAt = openDate, arrears = false) => {
      const customerId = await insertCustomer(db, {
        clientId,
        customerNo: no,
        customerName: `C${no}`,
        openDate,
      });
      await db.insert(recurringCharges).values(
        monthlyCharge({ clientId, customerId, codeId }, "25.00", {
          description: "Monthly",
          arrears,
          createdAt: new Date(`${createdAt}T12:00:00Z`),
        }),
      );
      return customerId;
    },
  };
}
