import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { clients } from "../../db/tables.js";

// The clients module owns the clients table: the production run, pool builds and the ledger's
// closed period change a client's cycle figures and closed-through date through these.

/** A client's cycle figures as a run found them (production_runs.client_before): what undo restores. */
export const clientCycleSnapshotSchema = z.object({
  cycle_ran: z.boolean(),
  days_in_last_cycle: z.number().int(),
  date_first_billing: z.string().nullable(),
  date_last_billing: z.string().nullable(),
  date_this_billing: z.string().nullable(),
  number_bills_sent_ytd: z.number().int(),
  number_bi_sent_ytd: z.number().int(),
  number_mailed_bills: z.number().int(),
  number_emailed_bills: z.number().int(),
  number_pulled_bills: z.number().int(),
  number_bill_overflows: z.number().int(),
  books_closed_through: z.string().nullable(),
});
export type ClientCycleSnapshot = z.output<typeof clientCycleSnapshotSchema>;

/** What a finished run part records on its client: billing dates, days in the cycle and the volumes. */
export async function recordClientCycle(
  tx: Executor,
  clientId: number,
  cycle: {
    runDate: string;
    days: number;
    /** The run starts a new fiscal year: the year-to-date counts start again. */
    newYear: boolean;
    sent: number;
    invoices: number;
    mailed: number;
    emailed: number;
    pulled: number;
  },
): Promise<void> {
  await tx
    .update(clients)
    .set({
      cycleRan: true,
      daysInLastCycle: cycle.days,
      dateFirstBilling: sql`coalesce(${clients.dateFirstBilling}, ${cycle.runDate}::date)`,
      dateLastBilling: cycle.runDate,
      dateThisBilling: cycle.runDate,
      numberBillsSentYtd: cycle.newYear ? cycle.sent : sql`${clients.numberBillsSentYtd} + ${cycle.sent}`,
      numberBiSentYtd: cycle.newYear ? cycle.invoices : sql`${clients.numberBiSentYtd} + ${cycle.invoices}`,
      numberMailedBills: cycle.mailed,
      numberEmailedBills: cycle.emailed,
      numberPulledBills: cycle.pulled,
      numberBillOverflows: 0,
      updatedAt: new Date(),
    })
    .where(eq(clients.id, clientId));
}

/** Undo of a run part: the client's cycle figures and closed-through date as the run found them. */
export async function restoreClientCycle(
  tx: Executor,
  clientId: number,
  before: ClientCycleSnapshot,
): Promise<void> {
  await tx
    .update(clients)
    .set({
      cycleRan: before.cycle_ran,
      daysInLastCycle: before.days_in_last_cycle,
      dateFirstBilling: before.date_first_billing,
      dateLastBilling: before.date_last_billing,
      dateThisBilling: before.date_this_billing,
      numberBillsSentYtd: before.number_bills_sent_ytd,
      numberBiSentYtd: before.number_bi_sent_ytd,
      numberMailedBills: before.number_mailed_bills,
      numberEmailedBills: before.number_emailed_bills,
      numberPulledBills: before.number_pulled_bills,
      numberBillOverflows: before.number_bill_overflows,
      booksClosedThrough: before.books_closed_through,
      updatedAt: new Date(),
    })
    .where(eq(clients.id, clientId));
}

/** A pool build counts the statements that ran past one sheet. */
export async function addBillOverflows(tx: Executor, clientId: number, overflows: number): Promise<void> {
  if (overflows <= 0) return;
  await tx.execute(
    sql`update clients set number_bill_overflows = number_bill_overflows + ${overflows} where id = ${clientId}`,
  );
}

/**
 * The ledger's closed period (ledger/closed-period.ts decides and records each change): sets the
 * client's closed-through date. `touched` also marks the client as changed (a person's reopen or close).
 */
export async function setBooksClosedThrough(
  tx: Executor,
  clientId: number,
  date: string | null,
  touched = false,
): Promise<void> {
  await tx.execute(
    touched
      ? sql`update clients set books_closed_through = ${date}::date, updated_at = now() where id = ${clientId}`
      : sql`update clients set books_closed_through = ${date}::date where id = ${clientId}`,
  );
}
