import type { PostingDate } from "@cyclebill/domain";
import { businessToday } from "../../clock.js";
import type { Database } from "../../db/database.js";
import type { TenantContext } from "../../http/auth-context.js";
import { openPeriodDates } from "../ledger/closed-period.js";

/**
 * The date of service an entry left to today would get now: asked of the ledger's closed-period
 * rule itself (an entry dated by the clock), so the add rows' default never differs from it.
 */
export async function postingDate(db: Database, tenant: TenantContext): Promise<PostingDate> {
  const today = businessToday();
  const [serviceDate] = await openPeriodDates(db, tenant.clientId, [
    { serviceDate: today, datedToday: true },
  ]);
  return { service_date: serviceDate ?? today, today };
}
