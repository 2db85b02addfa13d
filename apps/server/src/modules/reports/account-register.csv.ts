import { Readable } from "node:stream";
import { ACCOUNT_CATEGORIES, ACCOUNT_CATEGORY_LABELS, type ReportMonth } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { emptyRegisterTotals, walkRegister } from "./account-register.js";
import { toCsvLine } from "./report-csv.js";

const REGISTER_CSV_COLUMNS = [
  "line",
  "customer_no",
  "customer_name",
  "date",
  "code",
  "category",
  "description",
  "quantity",
  "rate",
  "amount",
  "entered",
  "mark",
  "count",
];

/**
 * The same register as CSV, streamed the same way: an opening, entry and closing line per customer
 * with activity, then one total line per code type and the opening, activity and closing totals.
 */
export function accountRegisterCsv(db: Executor, clientId: number, month: ReportMonth): Readable {
  const totals = emptyRegisterTotals();
  async function* lines(): AsyncGenerator<string> {
    yield toCsvLine(REGISTER_CSV_COLUMNS);
    for await (const group of walkRegister(db, clientId, month, totals)) {
      const { customerNo, name } = group.customer;
      yield toCsvLine([
        "opening",
        customerNo,
        name,
        month.start,
        "",
        "",
        "",
        "",
        "",
        group.customer.opening,
        "",
        "",
        "",
      ]);
      for (const line of group.lines) {
        yield toCsvLine([
          "entry",
          customerNo,
          name,
          line.serviceDate,
          line.code,
          line.category,
          line.description,
          line.quantity,
          line.rate,
          line.ledgerAmount,
          line.entered,
          line.mark,
          "",
        ]);
      }
      yield toCsvLine([
        "closing",
        customerNo,
        name,
        month.end,
        "",
        "",
        "",
        "",
        "",
        group.closing,
        "",
        "",
        "",
      ]);
    }
    for (const category of ACCOUNT_CATEGORIES) {
      const line = totals.byCategory[category];
      yield toCsvLine([
        "total",
        "",
        "",
        "",
        "",
        category,
        ACCOUNT_CATEGORY_LABELS[category],
        "",
        "",
        line.total,
        "",
        "",
        line.count,
      ]);
    }
    yield toCsvLine([
      "total",
      "",
      "",
      month.start,
      "",
      "opening",
      "Opening balance",
      "",
      "",
      totals.opening,
      "",
      "",
      totals.customers,
    ]);
    yield toCsvLine([
      "total",
      "",
      "",
      "",
      "",
      "activity",
      "Month's activity",
      "",
      "",
      totals.activity,
      "",
      "",
      "",
    ]);
    yield toCsvLine([
      "total",
      "",
      "",
      month.end,
      "",
      "closing",
      "Closing balance",
      "",
      "",
      totals.closing,
      "",
      "",
      "",
    ]);
  }
  return Readable.from(lines());
}
