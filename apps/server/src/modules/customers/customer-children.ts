import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { codes, customers, unitsOfMeasure } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError } from "../../http/errors.js";

/** Stored amounts and recurring charges refer to a customer and a code of the same client, and a unit. */
export async function assertCustomerCodeUnit(
  db: Executor,
  tenant: TenantContext,
  refs: { customerId: number; codeId: number; unitId: number; codeField: string },
): Promise<void> {
  const [customer] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, refs.customerId)))
    .limit(1);
  if (!customer) throw fieldError("customer", "Invalid customer - object does not exist.");
  const [code] = await db
    .select({ id: codes.id })
    .from(codes)
    .where(and(eq(codes.clientId, tenant.clientId), eq(codes.id, refs.codeId)))
    .limit(1);
  if (!code) throw fieldError(refs.codeField, "Invalid code - object does not exist.");
  const [unit] = await db
    .select({ id: unitsOfMeasure.id })
    .from(unitsOfMeasure)
    .where(eq(unitsOfMeasure.id, refs.unitId));
  if (!unit) throw fieldError("unitofmeasure", "Invalid unit of measure - object does not exist.");
}
