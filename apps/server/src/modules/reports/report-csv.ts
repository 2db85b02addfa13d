import { stringify } from "csv-stringify/sync";

// The one CSV writer of every download (reports, customers, transactions, pool manifests,
// reconciliations): csv-stringify quotes and escapes; our guard neutralises spreadsheet formulas.

/**
 * A text cell a spreadsheet would run as a formula (a leading =, +, -, @, tab or carriage return)
 * gets a leading apostrophe; a plain number ("-12.30") stays a number.
 */
export function guardFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  return guardFormula(typeof value === "string" ? value : String(value));
}

/** CSV lines (CRLF after each), quoting where needed, formulas neutralised. */
export function toCsvLines(rows: readonly (readonly unknown[])[]): string {
  return stringify(
    rows.map((row) => row.map(cellText)),
    { record_delimiter: "\r\n", quoted_match: /[\r\n]/ },
  );
}

/** One CSV line. */
export function toCsvLine(cells: readonly unknown[]): string {
  return toCsvLines([cells]);
}

/** A header line of `columns`, then each row's cells in that order. */
export function toCsv(rows: readonly Record<string, unknown>[], columns: readonly string[]): string {
  return toCsvLines([columns, ...rows.map((row) => columns.map((column) => row[column]))]);
}
