import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { codes, customers, unitsOfMeasure } from "../../db/tables.js";
import { fieldError } from "../../http/errors.js";

// The checks of what a write refers to: 400 on the field that names it when it is not there (or
// belongs to another client, which is the same to the caller).

/** 400 on customer unless the client has this customer. */
export async function assertClientCustomer(
  db: Executor,
  clientId: number,
  customerId: number,
): Promise<void> {
  const [customer] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.clientId, clientId), eq(customers.id, customerId)))
    .limit(1);
  if (!customer) throw fieldError("customer", "Invalid customer - object does not exist.");
}

/** The client's code with this id, or 400 on `field`. */
export async function clientCode(db: Executor, clientId: number, codeId: number, field = "code") {
  const [code] = await db
    .select()
    .from(codes)
    .where(and(eq(codes.clientId, clientId), eq(codes.id, codeId)))
    .limit(1);
  if (!code) throw fieldError(field, "Invalid code - object does not exist.");
  return code;
}

/** 400 on unitofmeasure unless the unit exists (units are shared by every client). */
export async function assertUnitOfMeasure(db: Executor, unitId: number): Promise<void> {
  const [unit] = await db
    .select({ id: unitsOfMeasure.id })
    .from(unitsOfMeasure)
    .where(eq(unitsOfMeasure.id, unitId))
    .limit(1);
  if (!unit) throw fieldError("unitofmeasure", "Invalid unit of measure - object does not exist.");
}
