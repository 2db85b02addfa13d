import { sql, type SQL } from "drizzle-orm";
import type { CodeType } from "@cyclebill/domain";
import type { FiguresChange } from "./apply-customer-figures.js";
import { sqlArray, type ArrayType } from "./sql-arrays.js";

/** What an entry says and is worth: the columns both a new entry and a rewritten one fill. */
export type EntryContent = {
  customerId: number;
  codeId: number;
  codeType: CodeType;
  description: string;
  rate: string;
  quantity: string;
  /** Never negative. */
  amount: string;
  /** Signed effect on the balance. */
  ledgerAmount: string;
  serviceDate: string;
  unitOfMeasureId: number;
};

// Each content field's column and array type, in the order the arrays are passed.
const CONTENT_COLUMNS: readonly (readonly [string, keyof EntryContent, ArrayType])[] = [
  ["customer_id", "customerId", "bigint"],
  ["code_id", "codeId", "bigint"],
  ["description", "description", "text"],
  ["rate", "rate", "numeric"],
  ["quantity", "quantity", "numeric"],
  ["amount", "amount", "numeric"],
  ["ledger_amount", "ledgerAmount", "numeric"],
  ["service_date", "serviceDate", "date"],
  ["unit_of_measure_id", "unitOfMeasureId", "bigint"],
];

/** The names of the columns entryContentArrays passes, in its order (for an unnest's alias list). */
export const ENTRY_CONTENT_COLUMNS = sql.raw(CONTENT_COLUMNS.map(([name]) => name).join(", "));

/** The entries' content as column arrays, one parameter a column, for an unnest(...). */
export function entryContentArrays(contents: readonly EntryContent[]): SQL {
  return sql.join(
    CONTENT_COLUMNS.map(([, field, type]) =>
      sqlArray(
        contents.map((content) => content[field]),
        type,
      ),
    ),
    sql`, `,
  );
}

/** A new entry's effect going onto its customer's figures. */
export function postingOf(content: EntryContent): FiguresChange {
  return {
    customerId: content.customerId,
    change: "post",
    entry: {
      codeType: content.codeType,
      amount: content.amount,
      ledgerAmount: content.ledgerAmount,
      serviceDate: content.serviceDate,
    },
  };
}

/** A stored entry, as read back from SQL, whose effect comes off its customer's figures. */
export type StoredEntryRow = {
  customer_id: number | string;
  code_type: CodeType;
  amount: string;
  ledger_amount: string;
  service_date: string;
};

export function removalOf(row: StoredEntryRow): FiguresChange {
  return {
    customerId: Number(row.customer_id),
    change: "remove",
    entry: {
      codeType: row.code_type,
      amount: row.amount,
      ledgerAmount: row.ledger_amount,
      serviceDate: row.service_date,
    },
  };
}
