import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  clientCyclesOf,
  clientSkipReason,
  runDateRefusal,
  type ClientLateFeeSettings,
  type MailingAddress,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbBool, dbDate, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { clients, jobRuns, productionRuns } from "../../db/tables.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { ageCustomerBalances, type CustomerAgeing } from "../summary/customer-ageing.queries.js";

// The reads a production plan is made of. Preview and run call the same ones (the run inside its
// chunk's transaction, after taking the locks), so the two cannot drift.

export type ProductionClientRow = typeof clients.$inferSelect;

/** The clients a run of admin cycle n takes (cycle 28 also takes month-end clients), by id. */
export async function clientsOfCycle(db: Executor, cycle: number): Promise<ProductionClientRow[]> {
  return db
    .select()
    .from(clients)
    .where(inArray(clients.normalCycle, clientCyclesOf(cycle)))
    .orderBy(asc(clients.id));
}

/**
 * Why a run of these cycle clients (those asked for, or all) on runDate is refused, or null: a real
 * date, at most the look-ahead past today, not before a billed client's last billing. The run's
 * start refuses by it and the preview shows it, so a date the run would refuse is not previewed.
 */
export function cycleRunDateRefusal(
  cycleClients: readonly ProductionClientRow[],
  runDate: string,
  today: string,
  asked: ReadonlySet<number> | null = null,
): string | null {
  const billable = cycleClients.filter(
    (client) =>
      (!asked || asked.has(client.id)) &&
      clientSkipReason({
        statusCode: client.statusCode,
        inactiveFlag: client.inactiveFlag,
        alreadyRun: false,
      }) === null,
  );
  return runDateRefusal(
    runDate,
    today,
    billable.map((client) => client.dateLastBilling),
  );
}

export async function clientById(db: Executor, clientId: number): Promise<ProductionClientRow | undefined> {
  const [row] = await db.select().from(clients).where(eq(clients.id, clientId)).limit(1);
  return row;
}

/**
 * Clients already run for this cycle and month (a production_runs row exists), except those whose
 * part for this very run date failed: a new run of the cycle and date resumes them.
 */
export async function clientsAlreadyRun(db: Executor, cycle: number, runDate: string): Promise<Set<number>> {
  const failed = await failedParts(db, cycle, runDate);
  const rows = await db
    .select({ clientId: productionRuns.clientId })
    .from(productionRuns)
    .where(
      and(
        eq(productionRuns.cycle, cycle),
        eq(productionRuns.runMonth, runDate.slice(0, 7)),
        isNull(productionRuns.undoneAt),
      ),
    );
  return new Set(rows.map((row) => row.clientId).filter((clientId) => !failed.has(clientId)));
}

export type FailedPart = { productionRunId: number; jobRunId: number; cycleRunId: number | null };

/** The clients' parts of this cycle and run date whose job run failed, by client id. */
export async function failedParts(
  db: Executor,
  cycle: number,
  runDate: string,
): Promise<Map<number, FailedPart>> {
  const rows = await db
    .select({
      clientId: productionRuns.clientId,
      productionRunId: productionRuns.id,
      jobRunId: jobRuns.id,
      cycleRunId: productionRuns.cycleRunId,
    })
    .from(productionRuns)
    .innerJoin(
      jobRuns,
      and(eq(jobRuns.clientId, productionRuns.clientId), eq(jobRuns.id, productionRuns.jobRunId)),
    )
    .where(
      and(
        eq(productionRuns.cycle, cycle),
        eq(productionRuns.runDate, runDate),
        eq(jobRuns.status, "failed"),
        isNull(productionRuns.undoneAt),
      ),
    );
  return new Map(rows.map(({ clientId, ...part }) => [clientId, part]));
}

export function lateFeeSettingsOf(client: ProductionClientRow): ClientLateFeeSettings {
  return {
    financeFlag: client.financeFlag,
    tiers: {
      30: {
        basis: client.thirtyDayRateOrPercent,
        percent: client.financeRate30Day,
        charge: client.dayCharge30Day,
      },
      60: {
        basis: client.sixtyDayRateOrPercent,
        percent: client.dayFinanceRate60Day,
        charge: client.dayCharge60Day,
      },
      90: {
        basis: client.ninetyDayRateOrPercent,
        percent: client.dayFinanceRate90Day,
        charge: client.dayCharge90Day,
      },
    },
  };
}

export type CustomerInput = {
  id: number;
  customerNo: number;
  customerName: string;
  pullFlag: string;
  financeFlag: string;
  deleteFlag: string | null;
  totalBalance: string;
  groupFlags: string[];
  /** Where its statement is delivered: the run holds back one it cannot deliver. */
  mailingAddress: MailingAddress;
  email: string;
};

export type RecurringInput = {
  id: number;
  customerId: number;
  codeId: number;
  code: number;
  codeType: string;
  description: string;
  rate: string;
  quantity: string;
  unitOfMeasureId: number | null;
  startMonth: number;
  endMonth: number;
  frequency: string;
  arrears: boolean;
  /** The later of the charge's start (its start date, or the day it was entered) and the customer's open date. */
  billFrom: string;
  /** Whether the user gave it a start date (a start after the run's period then bills nothing yet). */
  startGiven: boolean;
};

export type ClientCustomerInputs = {
  customers: CustomerInput[];
  recurring: Map<number, RecurringInput[]>;
  ageing: Map<number, CustomerAgeing>;
};

const customerRowSchema = z.object({
  id: dbInt,
  customer_no: dbInt,
  customer_name: dbText,
  pull_flag: dbText,
  finance_flag: dbText,
  delete_flag: dbText.nullable(),
  total_balance: dbDecimal,
  // array_agg of the customer's route plans' flags; null when it is in no group.
  group_flags: z.array(dbText).nullable(),
  address1: dbText,
  city: dbText,
  state: dbText,
  zip: dbText,
  email: dbText,
});

const chargeRowSchema = z.object({
  id: dbInt,
  customer_id: dbInt,
  code_id: dbInt,
  code: dbInt,
  code_type: dbText,
  description: dbText,
  code_description: dbText,
  rate: dbDecimal,
  quantity: dbDecimal,
  unit_of_measure_id: dbInt.nullable(),
  start_month: dbInt,
  end_month: dbInt,
  frequency: dbText,
  arrears: dbBool,
  bill_from: dbDate,
  start_given: dbBool,
});

const sourceKeyRowSchema = z.object({ source_key: dbText });

/** The client's customers a run bills (all but archived; or only the given ids), by id. */
export async function readCustomerInputs(
  db: Executor,
  clientId: number,
  runDate: string,
  customerIds?: readonly number[],
): Promise<ClientCustomerInputs> {
  const only = customerIds ? sql`and c.id = any(${sqlArray([...customerIds], "bigint")})` : sql``;
  const customerRows = await queryRows(
    db,
    sql`select c.id, c.customer_no, c.customer_name, c.pull_flag, c.finance_flag, c.delete_flag,
               c.total_balance::text as total_balance, c.address1, c.city, c.state, c.zip, c.email,
               (select array_agg(rp.bill_indicator_flag) from route_plans rp
                where rp.client_id = c.client_id and rp.customer_id = c.id) as group_flags
        from customers c
        where c.client_id = ${clientId} and not c.deleted ${only}
        order by c.id`,
    customerRowSchema,
  );
  const chargeRows = await queryRows(
    db,
    sql`select r.id, r.customer_id, r.code_id, k.code, k.code_type, r.description, k.description as code_description,
               r.rate::text as rate, r.quantity::text as quantity, r.unit_of_measure_id, r.start_month, r.end_month,
               r.frequency, r.arrears,
               greatest(coalesce(r.start_date, r.created_at::date), c.open_date)::text as bill_from,
               r.start_date is not null as start_given
        from recurring_charges r
        join customers c on c.client_id = r.client_id and c.id = r.customer_id and not c.deleted
        join codes k on k.client_id = r.client_id and k.id = r.code_id
        where r.client_id = ${clientId} ${customerIds ? sql`and r.customer_id = any(${sqlArray([...customerIds], "bigint")})` : sql``}
        order by r.customer_id, r.id`,
    chargeRowSchema,
  );
  const recurring = new Map<number, RecurringInput[]>();
  for (const row of chargeRows) {
    const customerId = row.customer_id;
    const list = recurring.get(customerId) ?? [];
    list.push({
      id: row.id,
      customerId,
      codeId: row.code_id,
      code: row.code,
      codeType: row.code_type,
      description: row.description || row.code_description,
      rate: row.rate,
      quantity: row.quantity,
      unitOfMeasureId: row.unit_of_measure_id,
      startMonth: row.start_month,
      endMonth: row.end_month,
      frequency: row.frequency,
      arrears: row.arrears,
      billFrom: row.bill_from,
      startGiven: row.start_given,
    });
    recurring.set(customerId, list);
  }
  const ids = customerRows.map((row) => row.id);
  const aged = await ageCustomerBalances(db, clientId, runDate, customerIds ? ids : undefined);
  return {
    customers: customerRows.map((row) => ({
      id: row.id,
      customerNo: row.customer_no,
      customerName: row.customer_name,
      pullFlag: row.pull_flag,
      financeFlag: row.finance_flag,
      deleteFlag: row.delete_flag,
      totalBalance: row.total_balance,
      groupFlags: row.group_flags ?? [],
      mailingAddress: { address1: row.address1, city: row.city, state: row.state, zip: row.zip },
      email: row.email,
    })),
    recurring,
    ageing: new Map(aged.map((row) => [row.customerId, row])),
  };
}

/** Which of these posting keys the client's ledger already holds. */
export async function existingSourceKeys(
  db: Executor,
  clientId: number,
  keys: readonly string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await queryRows(
    db,
    sql`select source_key from transactions
        where client_id = ${clientId} and source_key = any(${sqlArray([...keys], "text")})`,
    sourceKeyRowSchema,
  );
  return new Set(rows.map((row) => row.source_key));
}
