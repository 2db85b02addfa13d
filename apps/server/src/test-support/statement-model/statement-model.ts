// An independent, deliberately simple model of a customer's billing, written from the specification
// (issue 38): plain TypeScript over an in-memory list of entries in whole cents, importing nothing
// of the server or the domain, so a rule written twice there cannot agree with itself here. The
// model-based test drives the real server and compares every statement with what this computes.

export type Kind = "charge" | "payment" | "adjust" | "debit" | "late_fee";

export type ModelEntry = {
  /** The server's id, once posted (the model follows voids by it). */
  id: number;
  kind: Kind;
  date: string;
  /** Signed effect on the balance, in cents. */
  cents: number;
  /** The statement (index into `statements`) that billed it, or null. */
  billedBy: number | null;
  voided: boolean;
  /** A void entry (itself never voided). */
  isVoid: boolean;
  invoice: number | null;
  /** Posted by a run from a recurring charge (a charge in its own line of the month's totals). */
  recurring?: boolean;
};

export type Boxes = {
  previous: number;
  charges: number;
  lateFees: number;
  debits: number;
  payments: number;
  credits: number;
  newBalance: number;
};

export type Ageing = { current: number; days30: number; days60: number; days90: number; over90: number };

export type ModelStatement = {
  date: string;
  boxes: Boxes;
  /** The entry ids it bills. */
  lines: number[];
  amountDue: number;
  dueDate: string;
  ageing: Ageing;
};

export type ModelInvoice = { id: number; status: "open" | "closed" | "processed" };

export type LateFeeTerms = {
  /** N none; 1, 2, 3: from the 30-, 60-, 90-day tier on. */
  flag: "N" | "1" | "2" | "3";
  /** Tier 30: a flat fee in cents. */
  flat30: number;
  /** Tiers 60 and 90: a whole percent of the tier's overdue amount. */
  percent60: number;
  percent90: number;
};

export type RecurringTerms = { cents: number; arrears: boolean };

export type ModelCustomer = {
  entries: ModelEntry[];
  statements: ModelStatement[];
  invoices: ModelInvoice[];
  recurring: RecurringTerms[];
};

/** The balance effect of an amount posted under a kind: charges and debits raise it. */
export function signed(kind: Kind, cents: number): number {
  return kind === "payment" || kind === "adjust" ? -cents : cents;
}

function dayNumber(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
}

export function shiftDate(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * 86_400_000).toISOString().slice(0, 10);
}

/** The balance as of a day: every entry dated up to it. */
export function balanceAt(customer: ModelCustomer, date: string): number {
  return customer.entries.filter((e) => e.date <= date).reduce((sum, e) => sum + e.cents, 0);
}

/**
 * Ageing as of a day, first in first out: what is owed is made of the newest debits (positive
 * entries); each part ages by its debit's date (under 30 days current, then 30-59, 60-89, 90-119,
 * 120 and more); what the debits do not explain is the oldest. A credit balance is all current.
 */
export function ageingAt(customer: ModelCustomer, date: string): Ageing {
  const ageing: Ageing = { current: 0, days30: 0, days60: 0, days90: 0, over90: 0 };
  let owed = balanceAt(customer, date);
  if (owed <= 0) return { ...ageing, current: owed };
  const debits = customer.entries
    .filter((e) => e.date <= date && e.cents > 0)
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  for (const debit of debits) {
    if (owed <= 0) break;
    const part = Math.min(owed, debit.cents);
    const age = dayNumber(date) - dayNumber(debit.date);
    const bucket: keyof Ageing =
      age < 30 ? "current" : age < 60 ? "days30" : age < 90 ? "days60" : age < 120 ? "days90" : "over90";
    ageing[bucket] += part;
    owed -= part;
  }
  ageing.over90 += owed;
  return ageing;
}

/** A percent of cents, rounded half up to the cent. */
function percentOf(cents: number, percent: number): number {
  return Math.floor((cents * percent + 50) / 100);
}

/** The late fee a run charges: each tier from the start tier on, on its overdue amount, if any. */
export function lateFeeOf(ageing: Ageing, terms: LateFeeTerms): number {
  if (terms.flag === "N") return 0;
  const start = { "1": 30, "2": 60, "3": 90 }[terms.flag];
  let fee = 0;
  if (start <= 30 && ageing.days30 > 0) fee += terms.flat30;
  if (start <= 60 && ageing.days60 > 0) fee += percentOf(ageing.days60, terms.percent60);
  if (ageing.days90 + ageing.over90 > 0) fee += percentOf(ageing.days90 + ageing.over90, terms.percent90);
  return fee;
}

/**
 * A monthly recurring charge's service date for a run, always in the run's open period (from the day
 * after the last run): Arrears on the run date (its description names the month before), Advance on
 * the 1st of the run's month, or the period's first day when that is later.
 */
export function recurringDate(runDate: string, arrears: boolean, periodStart: string): string {
  if (arrears) return runDate;
  const first = `${runDate.slice(0, 7)}-01`;
  return first < periodStart ? periodStart : first;
}

/** What a run posts for a customer (recurring charges, then its late fee), before the statement. */
export function runPostings(
  customer: ModelCustomer,
  runDate: string,
  periodStart: string,
  lateFees: LateFeeTerms,
): { kind: Kind; date: string; cents: number; recurring: boolean }[] {
  const fee = lateFeeOf(ageingAt(customer, runDate), lateFees);
  return [
    ...customer.recurring.map((r) => ({
      kind: "charge" as const,
      date: recurringDate(runDate, r.arrears, periodStart),
      cents: r.cents,
      recurring: true,
    })),
    ...(fee > 0 ? [{ kind: "late_fee" as const, date: runDate, cents: fee, recurring: false }] : []),
  ];
}

/**
 * The statement a run makes: it bills every entry not yet billed dated up to its date; its boxes
 * (each entry in its kind's box, in the box's own sense) take the last statement's new balance to
 * its own; it carries the closed invoices all of whose entries it bills.
 */
export function makeStatement(customer: ModelCustomer, runDate: string, dueDays: number): ModelStatement {
  const index = customer.statements.length;
  const previous = customer.statements.at(-1)?.boxes.newBalance ?? 0;
  const billed = customer.entries.filter((e) => e.billedBy === null && e.date <= runDate);
  const boxes: Boxes = {
    previous,
    charges: 0,
    lateFees: 0,
    debits: 0,
    payments: 0,
    credits: 0,
    newBalance: previous,
  };
  for (const e of billed) {
    e.billedBy = index;
    if (e.kind === "charge") boxes.charges += e.cents;
    else if (e.kind === "late_fee") boxes.lateFees += e.cents;
    else if (e.kind === "debit") boxes.debits += e.cents;
    else if (e.kind === "payment") boxes.payments -= e.cents;
    else boxes.credits -= e.cents;
    boxes.newBalance += e.cents;
  }
  for (const invoice of customer.invoices) {
    if (invoice.status !== "closed") continue;
    const own = customer.entries.filter((e) => e.invoice === invoice.id);
    if (own.every((e) => e.billedBy !== null)) invoice.status = "processed";
  }
  const statement: ModelStatement = {
    date: runDate,
    boxes,
    lines: billed.map((e) => e.id),
    amountDue: Math.max(0, boxes.newBalance),
    dueDate: shiftDate(runDate, dueDays),
    ageing: ageingAt(customer, runDate),
  };
  customer.statements.push(statement);
  return statement;
}

/** What is due now on a customer's latest statement: its amount due, never more than is owed now. */
export function amountDueNow(customer: ModelCustomer): number {
  const latest = customer.statements.at(-1);
  if (!latest) return 0;
  const owed = customer.entries.reduce((sum, e) => sum + e.cents, 0);
  return Math.max(0, Math.min(latest.amountDue, owed));
}

export type MonthCategory =
  "charges" | "recurring" | "late_fees" | "payments" | "credit_adjustments" | "debit_adjustments";

/**
 * A month's activity by line of the Account Totals: every entry dated in the month (voids and
 * reversals in the line of what they offset, so the two net out), its count and signed total.
 */
export function monthActivity(
  customers: readonly ModelCustomer[],
  start: string,
  end: string,
): Record<MonthCategory, { count: number; cents: number }> {
  const lines: Record<MonthCategory, { count: number; cents: number }> = {
    charges: { count: 0, cents: 0 },
    recurring: { count: 0, cents: 0 },
    late_fees: { count: 0, cents: 0 },
    payments: { count: 0, cents: 0 },
    credit_adjustments: { count: 0, cents: 0 },
    debit_adjustments: { count: 0, cents: 0 },
  };
  const lineOf = (e: ModelEntry): MonthCategory => {
    if (e.recurring) return "recurring";
    if (e.kind === "late_fee") return "late_fees";
    if (e.kind === "payment") return "payments";
    if (e.kind === "adjust") return "credit_adjustments";
    if (e.kind === "debit") return "debit_adjustments";
    return "charges";
  };
  for (const customer of customers)
    for (const e of customer.entries) {
      if (e.date < start || e.date > end) continue;
      const line = lines[lineOf(e)];
      line.count += 1;
      line.cents += e.cents;
    }
  return lines;
}

/** Cents as the API writes amounts: "-12.30". */
export function money(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const magnitude = Math.abs(cents);
  return `${sign}${String(Math.floor(magnitude / 100))}.${String(magnitude % 100).padStart(2, "0")}`;
}
