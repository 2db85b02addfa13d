import { sql } from "drizzle-orm";
import { ledgerAmount, multiplyRateByQuantity, type CodeType } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { notFound } from "../../http/errors.js";
import { applyCustomerFigures, type FiguresChange } from "./apply-customer-figures.js";
import { assertOpenPeriod } from "./closed-period.js";
import { lockCustomers } from "./lock-customers.js";
import { assertPostable } from "./posting-rules.js";
import { sqlArray } from "./sql-arrays.js";

/** The new content of an editable entry. Rate and quantity are normalised; the amount follows. */
export type EntryRewrite = {
  id: number;
  customerId: number;
  codeId: number;
  codeType: CodeType;
  description: string;
  rate: string;
  quantity: string;
  serviceDate: string;
  unitOfMeasureId: number;
};

type CurrentRow = {
  id: number | string;
  customer_id: number | string;
  code_type: CodeType;
  amount: string;
  ledger_amount: string;
  service_date: string;
};

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
  const currentOwners = await queryRows<{ customer_id: number | string }>(
    tx,
    sql`select distinct customer_id from transactions
        where client_id = ${tenant.clientId} and id = any(${sqlArray(ids, "bigint")})`,
  );
  const locked = await lockCustomers(tx, tenant.clientId, [
    ...currentOwners.map((row) => Number(row.customer_id)),
    ...rewrites.map((rewrite) => rewrite.customerId),
  ]);
  for (const rewrite of rewrites) assertPostable(locked.get(rewrite.customerId), rewrite.codeType);
  const current = await queryRows<CurrentRow>(
    tx,
    sql`select t.id, t.customer_id, codes.code_type, t.amount::text as amount,
               t.ledger_amount::text as ledger_amount, t.service_date::text as service_date
        from transactions t join codes on codes.client_id = t.client_id and codes.id = t.code_id
        where t.client_id = ${tenant.clientId} and t.id = any(${sqlArray(ids, "bigint")})
        order by t.id for update of t`,
  );
  if (current.length !== new Set(ids).size) throw notFound();
  // Neither the old date nor the new one may lie in a closed period.
  await assertOpenPeriod(tx, tenant.clientId, [
    ...current.map((row) => ({ serviceDate: row.service_date })),
    ...rewrites.map((rewrite) => ({ serviceDate: rewrite.serviceDate })),
  ]);

  const priced = rewrites.map((rewrite) => {
    const amount = multiplyRateByQuantity(rewrite.rate, rewrite.quantity);
    return { rewrite, amount, signed: ledgerAmount(rewrite.codeType, amount) };
  });
  const column = <T extends string | number>(pick: (row: (typeof priced)[number]) => T) => priced.map(pick);
  await tx.execute(sql`
    update transactions t set customer_id = n.customer_id, code_id = n.code_id, description = n.description,
      rate = n.rate, quantity = n.quantity, amount = n.amount, ledger_amount = n.ledger_amount,
      service_date = n.service_date, unit_of_measure_id = n.unit_of_measure_id
    from unnest(
      ${sqlArray(
        column((row) => row.rewrite.id),
        "bigint",
      )},
      ${sqlArray(
        column((row) => row.rewrite.customerId),
        "bigint",
      )},
      ${sqlArray(
        column((row) => row.rewrite.codeId),
        "bigint",
      )},
      ${sqlArray(
        column((row) => row.rewrite.description),
        "text",
      )},
      ${sqlArray(
        column((row) => row.rewrite.rate),
        "numeric",
      )},
      ${sqlArray(
        column((row) => row.rewrite.quantity),
        "numeric",
      )},
      ${sqlArray(
        column((row) => row.amount),
        "numeric",
      )},
      ${sqlArray(
        column((row) => row.signed),
        "numeric",
      )},
      ${sqlArray(
        column((row) => row.rewrite.serviceDate),
        "date",
      )},
      ${sqlArray(
        column((row) => row.rewrite.unitOfMeasureId),
        "bigint",
      )}
    ) as n(id, customer_id, code_id, description, rate, quantity, amount, ledger_amount, service_date, unit_of_measure_id)
    where t.client_id = ${tenant.clientId} and t.id = n.id`);

  const changes: FiguresChange[] = [
    ...current.map((row) => ({
      customerId: Number(row.customer_id),
      change: "remove" as const,
      entry: {
        codeType: row.code_type,
        amount: row.amount,
        ledgerAmount: row.ledger_amount,
        serviceDate: row.service_date,
      },
    })),
    ...priced.map((row) => ({
      customerId: row.rewrite.customerId,
      change: "post" as const,
      entry: {
        codeType: row.rewrite.codeType,
        amount: row.amount,
        ledgerAmount: row.signed,
        serviceDate: row.rewrite.serviceDate,
      },
    })),
  ];
  await applyCustomerFigures(tx, tenant.clientId, changes);
}
