import {
  ACCOUNT_CATEGORIES,
  accountCategory,
  addAmounts,
  subtractAmounts,
  sumAmounts,
  type AccountCategory,
  type ReportMonth,
} from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { ageClientTotals, type ClientAgeing } from "../summary/customer-ageing.queries.js";
import {
  codeMonthTotals,
  monthCustomerCounts,
  monthReceivables,
  monthStatementCounts,
  type MonthCustomerCounts,
} from "./account-month.queries.js";

export type CodeLine = { code: number; description: string; count: number; total: string };
export type CategoryLines = { category: AccountCategory; count: number; total: string; codes: CodeLine[] };

export type AccountTotals = {
  month: ReportMonth;
  opening: string;
  activity: string;
  /** Opening plus the month's activity. */
  closing: string;
  /** The sum of every customer's balance as of the month's last day, read apart; equals closing. */
  closingFromBalances: string;
  categories: CategoryLines[];
  /** The closing balance aged as of the month's last day (first in, first out). */
  ageing: ClientAgeing;
  customers: MonthCustomerCounts;
  statements: { delivery: string; count: number }[];
};

/** The Account Totals of a client's month: every figure from the ledger as of the month's days. */
export async function accountTotals(
  db: Executor,
  clientId: number,
  month: ReportMonth,
): Promise<AccountTotals> {
  const [codeRows, receivables, ageing, customers, statements] = await Promise.all([
    codeMonthTotals(db, clientId, month),
    monthReceivables(db, clientId, month),
    ageClientTotals(db, clientId, month.end),
    monthCustomerCounts(db, clientId, month),
    monthStatementCounts(db, clientId, month),
  ]);
  const categories = ACCOUNT_CATEGORIES.map((category): CategoryLines => {
    const codes = new Map<number, CodeLine>();
    for (const row of codeRows) {
      if (accountCategory(row.codeType, row.categoryType) !== category) continue;
      const line = codes.get(row.code) ?? {
        code: row.code,
        description: row.description,
        count: 0,
        total: "0.00",
      };
      line.count += row.count;
      line.total = addAmounts(line.total, row.total);
      codes.set(row.code, line);
    }
    const lines = [...codes.values()];
    return {
      category,
      count: lines.reduce((total, line) => total + line.count, 0),
      total: sumAmounts(lines.map((line) => line.total)),
      codes: lines,
    };
  });
  const activity = sumAmounts(categories.map((line) => line.total));
  return {
    month,
    opening: receivables.opening,
    activity,
    closing: addAmounts(receivables.opening, activity),
    closingFromBalances: receivables.closing,
    categories,
    ageing,
    customers,
    statements,
  };
}

/** Zero when the books tie: closing (opening + activity) less the customers' balances at month end. */
export function outOfBalance(totals: AccountTotals): string {
  return subtractAmounts(totals.closing, totals.closingFromBalances);
}
