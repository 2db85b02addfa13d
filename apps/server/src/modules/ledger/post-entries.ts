import { sql } from "drizzle-orm";
import { ledgerAmount, multiplyRateByQuantity, sumAmounts } from "@cyclebill/domain";
import { z } from "zod";
import { currentClock } from "../../clock.js";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import type { transactionTypes } from "../../db/tables.js";
import { applyCustomerFigures } from "./apply-customer-figures.js";
import { openPeriodDates } from "./closed-period.js";
import { ENTRY_CONTENT_COLUMNS, entryContentArrays, postingOf, type EntryContent } from "./entry-content.js";
import { lockCustomers, type LockedCustomer } from "./lock-customers.js";
import { auditPostedEntries } from "./entry-audit.js";
import { postingRefusal, refusalError, type RefusalReason } from "./posting-rules.js";
import { sqlArray } from "./sql-arrays.js";

export type TransactionType = (typeof transactionTypes)[number];

/** One entry to post. Rate and quantity are already normalised (5 places); the amount follows from them. */
export type NewLedgerEntry = Pick<
  EntryContent,
  "customerId" | "codeId" | "codeType" | "description" | "rate" | "quantity" | "serviceDate"
> & {
  unitOfMeasureId?: number | null;
  transactionType?: TransactionType;
  storedAmountFlag?: boolean;
  createdByUserId?: number | null;
  recurringChargeId?: number | null;
  productionRunId?: number | null;
  /** Natural key of a job's posting, unique per client (a replay fails instead of posting twice). */
  sourceKey?: string | null;
  /** The gateway's TRANS_ID of a card or ACH payment. */
  gatewayTransId?: string | null;
  /** Entry time; now when absent (demo data and imports back-date it). */
  createdAt?: Date;
  /**
   * The service date is today's by the clock (a payment, a void, a defaulted date): on a day the
   * books are closed through, it moves to the first open day instead of being refused.
   */
  datedToday?: boolean;
  /** A void or a reversal: the entry's amount, with the opposite effect of the entry it offsets. */
  offsets?: { kind: "void" | "reversal"; entryId: number; amount: string; ledgerAmount: string };
};

/**
 * What to do with an entry the posting rules refuse (customer unknown or archived; a charge for a
 * customer marked for deletion): "refuse" throws the rule's message and posts nothing, "skip"
 * leaves it out and reports it (batches post to everyone else).
 */
export type RefusalPolicy = "refuse" | "skip";

export type PostEntriesResult = {
  /** The new entries' ids, parallel to the input; null where an entry was skipped. */
  ids: (number | null)[];
  refused: { index: number; customerId: number; reason: RefusalReason }[];
  /** Customers archived at zero by these postings. */
  archived: number[];
  /** Sum of the posted entries' (unsigned) amounts. */
  total: string;
};

/** An id drawn from the transactions' sequence (bigint). */
const drawnIdRowSchema = z.object({ id: dbInt });

function refusalOf(customer: LockedCustomer | undefined, entry: NewLedgerEntry): RefusalReason | null {
  // A void or reversal only takes an existing entry back: the posting rules are for new business.
  if (entry.offsets) return customer ? null : "unknown";
  return postingRefusal(customer, entry.codeType);
}

/**
 * The one way entries enter the ledger. Posts any number of entries for any number of customers
 * in a fixed number of statements — lock the customers (id order), draw the ids, one insert from
 * column arrays, one update of the customers' figures (then archive at zero) — in the caller's
 * database transaction, so a balance always equals its ledger. A single posting is a batch of one.
 */
export async function postEntries(
  tx: Executor,
  tenant: { clientId: number },
  requested: readonly NewLedgerEntry[],
  policy: RefusalPolicy = "refuse",
): Promise<PostEntriesResult> {
  const empty: PostEntriesResult = {
    ids: requested.map(() => null),
    refused: [],
    archived: [],
    total: "0.00",
  };
  if (requested.length === 0) return empty;
  const locked = await lockCustomers(
    tx,
    tenant.clientId,
    requested.map((entry) => entry.customerId),
  );
  // A closed period refuses the whole posting, whatever the policy: nothing is written.
  const openDates = await openPeriodDates(tx, tenant.clientId, requested);
  const entries = requested.map((entry, index) =>
    entry.serviceDate === openDates[index] ? entry : { ...entry, serviceDate: openDates[index] as string },
  );
  const refused: PostEntriesResult["refused"] = [];
  const accepted: { index: number; entry: NewLedgerEntry; amount: string; signed: string }[] = [];
  entries.forEach((entry, index) => {
    const reason = refusalOf(locked.get(entry.customerId), entry);
    if (reason && policy === "refuse") throw refusalError(reason);
    if (reason) {
      refused.push({ index, customerId: entry.customerId, reason });
      return;
    }
    const amount = entry.offsets?.amount ?? multiplyRateByQuantity(entry.rate, entry.quantity);
    const signed = entry.offsets?.ledgerAmount ?? ledgerAmount(entry.codeType, amount);
    accepted.push({ index, entry, amount, signed });
  });
  if (accepted.length === 0) return { ...empty, refused };

  const drawn = await queryRows(
    tx,
    sql`select nextval(pg_get_serial_sequence('transactions', 'id')) as id
        from generate_series(1, ${accepted.length}::int)`,
    drawnIdRowSchema,
  );
  const newIds = drawn.map((row) => row.id).sort((a, b) => a - b);
  // Stamped by the app's clock, not the database's now(): the duplicate check and the "created" filters
  // compare it with the app's time and business dates.
  const stamped = currentClock().now();
  const contents = accepted.map(({ entry, amount, signed }): EntryContent => ({
    ...entry,
    amount,
    ledgerAmount: signed,
    unitOfMeasureId: entry.unitOfMeasureId ?? 1,
  }));
  const column = <T extends string | number | boolean | null>(pick: (row: (typeof accepted)[number]) => T) =>
    accepted.map(pick);
  await tx.execute(sql`
    insert into transactions (client_id, id, customer_id, code_id, description, quantity, rate, amount, ledger_amount,
                              service_date, unit_of_measure_id, transaction_type, stored_amount_flag, created_by_user_id,
                              recurring_charge_id, production_run_id, voids_transaction_id, reverses_transaction_id,
                              source_key, gateway_trans_id, created_at)
    select ${tenant.clientId}::bigint, t.id, t.customer_id, t.code_id, t.description, t.quantity, t.rate, t.amount,
           t.ledger_amount, t.service_date, t.unit_of_measure_id, t.transaction_type, t.stored_amount_flag,
           t.created_by_user_id, t.recurring_charge_id, t.production_run_id, t.voids_id, t.reverses_id,
           t.source_key, t.gateway_trans_id, t.created_at
    from unnest(
      ${sqlArray(newIds, "bigint")},
      ${entryContentArrays(contents)},
      ${sqlArray(
        column((row) => row.entry.transactionType ?? "user_or_scanner"),
        "text",
      )},
      ${sqlArray(
        column((row) => row.entry.storedAmountFlag ?? true),
        "boolean",
      )},
      ${sqlArray(
        column((row) => row.entry.createdByUserId ?? null),
        "bigint",
      )},
      ${sqlArray(
        column((row) => row.entry.recurringChargeId ?? null),
        "bigint",
      )},
      ${sqlArray(
        column((row) => row.entry.productionRunId ?? null),
        "bigint",
      )},
      ${sqlArray(
        column((row) => (row.entry.offsets?.kind === "void" ? row.entry.offsets.entryId : null)),
        "bigint",
      )},
      ${sqlArray(
        column((row) => (row.entry.offsets?.kind === "reversal" ? row.entry.offsets.entryId : null)),
        "bigint",
      )},
      ${sqlArray(
        column((row) => row.entry.sourceKey ?? null),
        "text",
      )},
      ${sqlArray(
        column((row) => row.entry.gatewayTransId ?? null),
        "text",
      )},
      ${sqlArray(
        column((row) => (row.entry.createdAt ?? stamped).toISOString()),
        "timestamptz",
      )}
    ) as t(id, ${ENTRY_CONTENT_COLUMNS}, transaction_type, stored_amount_flag, created_by_user_id, recurring_charge_id,
           production_run_id, voids_id, reverses_id, source_key, gateway_trans_id, created_at)`);

  const { archived } = await applyCustomerFigures(tx, tenant.clientId, contents.map(postingOf));
  await auditPostedEntries(
    tx,
    tenant.clientId,
    accepted.map((row, position) => ({
      id: newIds[position] as number,
      content: contents[position] as EntryContent,
      entry: row.entry,
    })),
  );
  const ids: (number | null)[] = entries.map(() => null);
  accepted.forEach((row, position) => (ids[row.index] = newIds[position] as number));
  return { ids, refused, archived, total: sumAmounts(accepted.map((row) => row.amount)) };
}
