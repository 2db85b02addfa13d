import type { Readable } from "node:stream";
import {
  ACCOUNT_CATEGORIES,
  ACCOUNT_CATEGORY_LABELS,
  formatRateUsd,
  formatUsd,
  type ReportMonth,
} from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { emptyRegisterTotals, walkRegister, type RegisterTotals } from "./account-register.js";
import { streamingTable } from "./streaming-table.pdf.js";

export type ReportHeading = { clientName: string; clientNo: number; month: ReportMonth; printedOn: string };

function quantity(value: string): string {
  return value.replace(/\.?0+$/, "") || "0";
}

/**
 * The Account Register PDF, streamed: each customer with entries in the month (number and name,
 * opening balance, every entry with its signed amount, entered date and void/reversal mark,
 * activity and closing balance), then the month's totals by code type. Pages go down the stream
 * as the customers' pages of entries arrive from the database.
 */
export function accountRegisterPdf(db: Executor, clientId: number, heading: ReportHeading): Readable {
  const table = streamingTable({
    title: "Account Register",
    subtitle: [
      `${heading.clientName} (client ${heading.clientNo})`,
      `${heading.month.label}: entries dated ${heading.month.start} to ${heading.month.end}. Printed ${heading.printedOn}. ` +
        "Amounts are signed: charges and debits raise a balance, payments and credits lower it.",
    ],
    landscape: true,
    columns: [
      { header: "Date", width: 62 },
      { header: "Code", width: 40, align: "right" },
      { header: "Description", width: 200 },
      { header: "Qty", width: 40, align: "right" },
      { header: "Rate", width: 70, align: "right" },
      { header: "Amount", width: 80, align: "right" },
      { header: "Entered", width: 62 },
      { header: "Mark", width: 166 },
    ],
  });
  const totals = emptyRegisterTotals();
  const write = async () => {
    for await (const group of walkRegister(db, clientId, heading.month, totals)) {
      table.keep(3);
      table.band(
        `#${group.customer.customerNo}  ${group.customer.name}`,
        `Opening balance ${formatUsd(group.customer.opening)}`,
      );
      for (const line of group.lines) {
        table.row([
          line.serviceDate,
          String(line.code),
          line.description,
          quantity(line.quantity),
          formatRateUsd(line.rate),
          formatUsd(line.ledgerAmount),
          line.entered,
          line.mark,
        ]);
      }
      table.row(
        [
          "",
          "",
          "Activity / closing balance",
          "",
          "",
          formatUsd(group.activity),
          "",
          `Closing ${formatUsd(group.closing)}`,
        ],
        { bold: true },
      );
      table.gap();
    }
    writeRegisterTotals(table, totals);
    table.end();
  };
  write().catch((error: unknown) =>
    table.doc.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return table.doc as unknown as Readable;
}

function writeRegisterTotals(table: ReturnType<typeof streamingTable>, totals: RegisterTotals): void {
  table.keep(ACCOUNT_CATEGORIES.length + 8);
  table.gap();
  table.band("Totals by code type", undefined, "#c9d6e3");
  for (const category of ACCOUNT_CATEGORIES) {
    const line = totals.byCategory[category];
    table.row([
      "",
      "",
      ACCOUNT_CATEGORY_LABELS[category],
      String(line.count),
      "",
      formatUsd(line.total),
      "",
      "",
    ]);
  }
  table.row(["", "", "Month's activity", "", "", formatUsd(totals.activity), "", ""], { bold: true });
  table.gap();
  table.row([
    "",
    "",
    `Opening balance (${totals.customers} customers)`,
    "",
    "",
    formatUsd(totals.opening),
    "",
    "",
  ]);
  table.row(["", "", "Month's activity", "", "", formatUsd(totals.activity), "", ""]);
  table.row(["", "", "Closing balance", "", "", formatUsd(totals.closing), "", ""], { bold: true });
  table.row([
    "",
    "",
    `${totals.customersWithActivity} customers listed; ${totals.quietCustomers} without entries this month`,
    "",
    "",
    formatUsd(totals.quietBalance),
    "",
    "balance carried, unchanged",
  ]);
}
