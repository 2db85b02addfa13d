import type { Executor } from "../../db/database.js";
import type { TenantContext } from "../../http/auth-context.js";
import { assertClientCustomer, assertUnitOfMeasure, clientCode } from "../tenancy/tenant-refs.js";

/** Stored amounts and recurring charges refer to a customer and a code of the same client, and a unit. */
export async function assertCustomerCodeUnit(
  db: Executor,
  tenant: TenantContext,
  refs: { customerId: number; codeId: number; unitId: number; codeField: string },
): Promise<void> {
  await assertClientCustomer(db, tenant.clientId, refs.customerId);
  await clientCode(db, tenant.clientId, refs.codeId, refs.codeField);
  await assertUnitOfMeasure(db, refs.unitId);
}
