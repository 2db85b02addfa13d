import type { Readable } from "node:stream";
import { ACCOUNT_CATEGORY_LABELS, formatUsd, isZeroAmount } from "@cyclebill/domain";
import { outOfBalance, type AccountTotals } from "./account-totals.js";
import type { ReportHeading } from "./account-register.pdf.js";
import { streamingTable } from "./streaming-table.pdf.js";

export const DELIVERY_LABELS: Record<string, string> = {
  mail: "Mailed",
  email: "Emailed",
  both: "Mailed and emailed",
  bulk: "Shipped in bulk to the client",
  pulled: "Pulled (not sent)",
};

/** The Account Totals PDF: one page (a few for a client with very many codes). */
export function accountTotalsPdf(totals: AccountTotals, heading: ReportHeading): Readable {
  const { month } = totals;
  const table = streamingTable({
    title: "Account Totals",
    subtitle: [
      `${heading.clientName} (client ${heading.clientNo})`,
      `${month.label}: entries dated ${month.start} to ${month.end}. Printed ${heading.printedOn}. ` +
        "Amounts are signed: charges and debits raise receivables, payments and credits lower them.",
    ],
    columns: [
      { header: "Code", width: 60, align: "right" },
      { header: "Description", width: 250 },
      { header: "Entries", width: 90, align: "right" },
      { header: "Amount", width: 140, align: "right" },
    ],
  });
  const amountRow = (label: string, amount: string, bold = false, count = "") =>
    table.row(["", label, count, formatUsd(amount)], { bold });

  table.band("Receivables");
  amountRow(`Opening receivables (balances at the start of ${month.start})`, totals.opening, true);
  for (const line of totals.categories) {
    if (line.count === 0) continue;
    table.keep(line.codes.length + 1);
    table.band(ACCOUNT_CATEGORY_LABELS[line.category], `${line.count} entries · ${formatUsd(line.total)}`);
    for (const code of line.codes) {
      table.row([String(code.code), code.description, String(code.count), formatUsd(code.total)]);
    }
  }
  const entries = totals.categories.reduce((total, line) => total + line.count, 0);
  amountRow("Month's activity", totals.activity, true, String(entries));
  amountRow(`Closing receivables (opening + activity, ${month.end})`, totals.closing, true);
  amountRow(`Customers' balances as of ${month.end}, read from the ledger`, totals.closingFromBalances);
  const difference = outOfBalance(totals);
  if (!isZeroAmount(difference)) amountRow("OUT OF BALANCE BY", difference, true);

  table.gap();
  table.keep(7);
  table.band(`Ageing of the closing balance as of ${month.end}`, "first in, first out");
  amountRow("Current (under 30 days)", totals.ageing.current);
  amountRow("30 days", totals.ageing.days30);
  amountRow("60 days", totals.ageing.days60);
  amountRow("90 days", totals.ageing.days90);
  amountRow("Over 90 days", totals.ageing.over90);
  amountRow("Total", totals.ageing.balance, true);

  table.gap();
  table.keep(4);
  table.band("Customers");
  table.row(["", `Active at ${month.end}`, String(totals.customers.active), ""]);
  table.row(["", "New (opened in the month)", String(totals.customers.opened), ""]);
  table.row(["", "Archived in the month", String(totals.customers.archived), ""]);

  table.gap();
  table.keep(totals.statements.length + 2);
  table.band("Statements dated in the month");
  for (const line of totals.statements) {
    table.row(["", DELIVERY_LABELS[line.delivery] ?? line.delivery, String(line.count), ""]);
  }
  const statements = totals.statements.reduce((total, line) => total + line.count, 0);
  table.row(["", "Statements produced", String(statements), ""], { bold: true });
  table.end();
  return table.doc as unknown as Readable;
}
