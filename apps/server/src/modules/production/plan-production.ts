import {
  addAmounts,
  computeLateFee,
  decideStatement,
  emptyBuckets,
  ledgerAmount,
  multiplyRateByQuantity,
  NO_STATEMENT_REASONS,
  recurringDescription,
  recurringDueInPeriod,
  recurringQuantity,
  refusesPosting,
  sumAmounts,
  toAmount,
  type AgeingBuckets,
  type BillingPeriod,
  type CodeType,
  type LateFee,
  type NoStatementReason,
  type ProductionFigures,
  type RecurringFrequency,
  type StatementDecision,
} from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import {
  existingSourceKeys,
  lateFeeSettingsOf,
  readCustomerInputs,
  type CustomerInput,
  type ProductionClientRow,
  type RecurringInput,
} from "./production-inputs.js";

export type RecurringPosting = {
  charge: RecurringInput;
  /** The posted description: the charge's, naming the month it covers when dated outside it. */
  description: string;
  serviceDate: string;
  quantity: string;
  amount: string;
  sourceKey: string;
};

/** What a run does to one customer: the same object for the preview and the run. */
export type CustomerPlan = {
  customer: CustomerInput;
  ageing: AgeingBuckets;
  recurring: RecurringPosting[];
  lateFee: LateFee;
  lateFeeKey: string | null;
  newBalance: string;
  decision: StatementDecision;
};

export function recurringKey(chargeId: number, serviceMonth: string): string {
  return `recurring:${chargeId}:${serviceMonth}`;
}

export function lateFeeKey(productionRunId: number, customerId: number): string {
  return `late-fee:${productionRunId}:${customerId}`;
}

/**
 * Plans a client's run for its customers (all, or the given ids): recurring charges due in the
 * period, late fees from the ageing as of the run date, and each statement decision on the balance
 * the postings leave. Reads only. What the ledger already holds under its unique key is left out
 * (a charge's period already billed, this run's late fee), so a replay plans only what is missing.
 */
export async function planCustomers(
  db: Executor,
  client: ProductionClientRow,
  input: { period: BillingPeriod; productionRunId: number | null; customerIds?: readonly number[] },
): Promise<CustomerPlan[]> {
  const { customers, recurring, ageing } = await readCustomerInputs(
    db,
    client.id,
    input.period.end,
    input.customerIds,
  );
  const settings = lateFeeSettingsOf(client);
  const candidates = customers.map((customer) => {
    const charges = recurring.get(customer.id) ?? [];
    const postings: RecurringPosting[] = [];
    for (const charge of charges) {
      if (refusesPosting(customer.deleteFlag, charge.codeType as CodeType)) continue;
      const due = recurringDueInPeriod(
        {
          startMonth: charge.startMonth,
          endMonth: charge.endMonth,
          frequency: charge.frequency as RecurringFrequency,
          arrears: charge.arrears,
        },
        input.period,
        charge.billFrom,
        { given: charge.startGiven },
      );
      for (const billing of due) {
        const quantity = recurringQuantity(charge.quantity, billing.occurrences);
        postings.push({
          charge,
          description: recurringDescription(charge.description, billing),
          serviceDate: billing.serviceDate,
          quantity,
          amount: multiplyRateByQuantity(charge.rate, quantity),
          sourceKey: recurringKey(charge.id, billing.serviceMonth),
        });
      }
    }
    return { customer, postings };
  });
  const taken = await existingSourceKeys(
    db,
    client.id,
    candidates.flatMap((candidate) => candidate.postings.map((posting) => posting.sourceKey)),
  );
  const feeKeys =
    input.productionRunId === null
      ? new Set<string>()
      : await existingSourceKeys(
          db,
          client.id,
          customers.map((customer) => lateFeeKey(input.productionRunId as number, customer.id)),
        );
  return candidates.map(({ customer, postings }) => {
    const aged: AgeingBuckets = ageing.get(customer.id) ?? emptyBuckets();
    const recurringPostings = postings.filter((posting) => !taken.has(posting.sourceKey));
    const key = input.productionRunId === null ? null : lateFeeKey(input.productionRunId, customer.id);
    const chargeable = !refusesPosting(customer.deleteFlag, "charge") && !(key !== null && feeKeys.has(key));
    const lateFee = chargeable
      ? computeLateFee(customer.financeFlag, settings, aged)
      : { lines: [], total: "0.00", description: "" };
    const newBalance = sumAmounts([
      customer.totalBalance,
      ...recurringPostings.map((posting) =>
        ledgerAmount(posting.charge.codeType as CodeType, posting.amount),
      ),
      lateFee.total,
    ]);
    return {
      customer,
      ageing: aged,
      recurring: recurringPostings,
      lateFee,
      lateFeeKey: key,
      newBalance,
      decision: decideStatement({
        pullFlag: customer.pullFlag,
        deleteFlag: customer.deleteFlag,
        groupFlags: customer.groupFlags,
        billCriteria: client.billCriteria,
        newBalance,
        mailingAddress: customer.mailingAddress,
        email: customer.email,
      }),
    };
  });
}

export function emptyFigures(): ProductionFigures {
  return {
    customers: 0,
    statements: { mail: 0, email: 0, both: 0, pulled: 0, none: 0 },
    no_statement: Object.fromEntries(NO_STATEMENT_REASONS.map((reason) => [reason, 0])) as Record<
      NoStatementReason,
      number
    >,
    recurring: { count: 0, total: "0.00" },
    late_fees: { count: 0, total: "0.00" },
  };
}

/** The figures of a set of customer plans: what the preview shows and the run records. */
export function figuresOf(plans: readonly CustomerPlan[]): ProductionFigures {
  const figures = emptyFigures();
  for (const plan of plans) {
    figures.customers += 1;
    if (plan.decision.produce) figures.statements[plan.decision.delivery] += 1;
    else {
      figures.statements.none += 1;
      figures.no_statement[plan.decision.reason] += 1;
    }
    figures.recurring.count += plan.recurring.length;
    figures.recurring.total = addAmounts(
      figures.recurring.total,
      sumAmounts(plan.recurring.map((p) => p.amount)),
    );
    if (plan.lateFee.lines.length > 0) {
      figures.late_fees.count += 1;
      figures.late_fees.total = addAmounts(figures.late_fees.total, plan.lateFee.total);
    }
  }
  return figures;
}

/** Adds figures up (a run's chunks, a cycle's clients). */
export function addFigures(all: readonly ProductionFigures[]): ProductionFigures {
  const total = emptyFigures();
  for (const figures of all) {
    total.customers += figures.customers;
    for (const key of Object.keys(total.statements) as (keyof ProductionFigures["statements"])[])
      total.statements[key] += figures.statements[key];
    for (const reason of NO_STATEMENT_REASONS)
      total.no_statement[reason] += figures.no_statement[reason] ?? 0;
    total.recurring.count += figures.recurring.count;
    total.recurring.total = toAmount(addAmounts(total.recurring.total, figures.recurring.total));
    total.late_fees.count += figures.late_fees.count;
    total.late_fees.total = addAmounts(total.late_fees.total, figures.late_fees.total);
  }
  return total;
}

/** Figures recorded before a reason existed (the cannot-deliver ones) count 0 for it. */
export function withAllReasons(figures: unknown): unknown {
  if (typeof figures !== "object" || figures === null) return figures;
  const recorded = (figures as { no_statement?: object }).no_statement ?? {};
  return { ...figures, no_statement: { ...emptyFigures().no_statement, ...recorded } };
}
