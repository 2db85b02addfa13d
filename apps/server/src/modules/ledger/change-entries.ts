import { sql } from "drizzle-orm";
import { CODE_TYPES, ledgerAmount, multiplyRateByQuantity } from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt } from "../../db/row-schemas.js";
import { notFound } from "../../http/errors.js";
import { applyCustomerFigures } from "./apply-customer-figures.js";
import { assertOpenPeriod } from "./closed-period.js";
import {
  ENTRY_CONTENT_COLUMNS,
  entryContentArrays,
  postingOf,
  removalOf,
  type EntryContent,
} from "./entry-content.js";
import { lockCustomers } from "./lock-customers.js";
import { assertPostable } from "./posting-rules.js";
import { sqlArray } from "./sql-arrays.js";
import { auditRewrittenEntries, entryAuditValues } from "./entry-audit.js";

/** The new content of an editable entry. Rate and quantity are normalised; the amount follows. */
export type EntryRewrite = Omit<EntryContent, "amount" | "ledgerAmount"> & { id: number };

const ownerRowSchema = z.object({ customer_id: dbInt });

/** An entry as it stands before the rewrite (a StoredEntryRow with its id). */
const currentRowSchema = z.object({
  id: dbInt,
  customer_id: dbInt,
  code_type: z.enum(CODE_TYPES),
  amount: dbDecimal,
  ledger_amount: dbDecimal,
  service_date: dbDate,
  code_id: dbInt,
  description: z.string(),
  rate: dbDecimal,
  quantity: dbDecimal,
  unit_of_measure_id: dbInt,
});

/**
 * Rewrites entries in place (edit, mass update): each old effect comes off its customer and
 * the new one goes on, with every customer involved — old and new — locked in id order first,
 * one update of the entries and one of the figures. The caller has checked the entries are
 * editable; the posting rules for the (new) customers are checked here.
 */
export async function changeEntries(
  tx: Executor,
  tenant: { clientId: number },
  rewrites: readonly EntryRewrite[],
): Promise<void> {
  if (rewrites.length === 0) return;
  const ids = rewrites.map((rewrite) => rewrite.id);
  const currentOwners = await queryRows(
    tx,
    sql`select distinct customer_id from transactions
        where client_id = ${tenant.clientId} and id = any(${sqlArray(ids, "bigint")})`,
    ownerRowSchema,
  );
  const locked = await lockCustomers(tx, tenant.clientId, [
    ...currentOwners.map((row) => row.customer_id),
    ...rewrites.map((rewrite) => rewrite.customerId),
  ]);
  for (const rewrite of rewrites) assertPostable(locked.get(rewrite.customerId), rewrite.codeType);
  const current = await queryRows(
    tx,
    sql`select t.id, t.customer_id, codes.code_type, t.amount::text as amount,
               t.ledger_amount::text as ledger_amount, t.service_date::text as service_date,
               t.code_id, t.description, t.rate::text as rate, t.quantity::text as quantity,
               t.unit_of_measure_id
        from transactions t join codes on codes.client_id = t.client_id and codes.id = t.code_id
        where t.client_id = ${tenant.clientId} and t.id = any(${sqlArray(ids, "bigint")})
        order by t.id for update of t`,
    currentRowSchema,
  );
  if (current.length !== new Set(ids).size) throw notFound();
  // Neither the old date nor the new one may lie in a closed period.
  await assertOpenPeriod(tx, tenant.clientId, [
    ...current.map((row) => ({ serviceDate: row.service_date })),
    ...rewrites.map((rewrite) => ({ serviceDate: rewrite.serviceDate })),
  ]);

  const contents = rewrites.map((rewrite): EntryContent => {
    const amount = multiplyRateByQuantity(rewrite.rate, rewrite.quantity);
    return { ...rewrite, amount, ledgerAmount: ledgerAmount(rewrite.codeType, amount) };
  });
  await tx.execute(sql`
    update transactions t set customer_id = n.customer_id, code_id = n.code_id, description = n.description,
      rate = n.rate, quantity = n.quantity, amount = n.amount, ledger_amount = n.ledger_amount,
      service_date = n.service_date, unit_of_measure_id = n.unit_of_measure_id
    from unnest(${sqlArray(ids, "bigint")}, ${entryContentArrays(contents)}) as n(id, ${ENTRY_CONTENT_COLUMNS})
    where t.client_id = ${tenant.clientId} and t.id = n.id`);
  await applyCustomerFigures(tx, tenant.clientId, [...current.map(removalOf), ...contents.map(postingOf)]);
  const was = new Map(current.map((row) => [row.id, row]));
  await auditRewrittenEntries(
    tx,
    tenant.clientId,
    contents.map((content, index) => {
      const id = ids[index] as number;
      const row = was.get(id);
      const before = row
        ? entryAuditValues({
            customerId: row.customer_id,
            codeId: row.code_id,
            codeType: row.code_type,
            description: row.description,
            rate: row.rate,
            quantity: row.quantity,
            amount: row.amount,
            ledgerAmount: row.ledger_amount,
            serviceDate: row.service_date,
            unitOfMeasureId: row.unit_of_measure_id,
          })
        : {};
      return { id, before, after: content };
    }),
  );
}
