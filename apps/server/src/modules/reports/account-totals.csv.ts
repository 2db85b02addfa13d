import { ACCOUNT_CATEGORY_LABELS } from "@cyclebill/domain";
import { outOfBalance, type AccountTotals } from "./account-totals.js";
import { DELIVERY_LABELS } from "./account-totals.pdf.js";
import { toCsvLine } from "./report-csv.js";

/** The Account Totals as CSV: the same figures as the PDF, one line each. */
export function accountTotalsCsv(totals: AccountTotals): string {
  const { month } = totals;
  const lines: (string | number)[][] = [["section", "code", "label", "count", "amount"]];
  lines.push(["receivables", "", `Opening receivables ${month.start}`, "", totals.opening]);
  for (const line of totals.categories) {
    for (const code of line.codes)
      lines.push([line.category, code.code, code.description, code.count, code.total]);
    lines.push([
      line.category,
      "",
      `${ACCOUNT_CATEGORY_LABELS[line.category]} total`,
      line.count,
      line.total,
    ]);
  }
  const entries = totals.categories.reduce((total, line) => total + line.count, 0);
  lines.push(["receivables", "", "Month's activity", entries, totals.activity]);
  lines.push(["receivables", "", `Closing receivables ${month.end}`, "", totals.closing]);
  lines.push(["receivables", "", `Customers' balances as of ${month.end}`, "", totals.closingFromBalances]);
  lines.push(["receivables", "", "Out of balance", "", outOfBalance(totals)]);
  lines.push(["ageing", "", "Current", "", totals.ageing.current]);
  lines.push(["ageing", "", "30 days", "", totals.ageing.days30]);
  lines.push(["ageing", "", "60 days", "", totals.ageing.days60]);
  lines.push(["ageing", "", "90 days", "", totals.ageing.days90]);
  lines.push(["ageing", "", "Over 90 days", "", totals.ageing.over90]);
  lines.push(["ageing", "", "Total", "", totals.ageing.balance]);
  lines.push(["customers", "", `Active at ${month.end}`, totals.customers.active, ""]);
  lines.push(["customers", "", "New in the month", totals.customers.opened, ""]);
  lines.push(["customers", "", "Archived in the month", totals.customers.archived, ""]);
  for (const line of totals.statements)
    lines.push([
      "statements",
      line.delivery,
      DELIVERY_LABELS[line.delivery] ?? line.delivery,
      line.count,
      "",
    ]);
  lines.push([
    "statements",
    "",
    "Statements produced",
    totals.statements.reduce((total, line) => total + line.count, 0),
    "",
  ]);
  return lines.map(toCsvLine).join("");
}
