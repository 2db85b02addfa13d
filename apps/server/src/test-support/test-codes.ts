import type { CodeType } from "@cyclebill/domain";
import type { Database } from "../db/database.js";
import { codes } from "../db/tables.js";

export type TestCode = { code: number; description: string; codeType: CodeType };

/** The codes most API tests post with; a test names the ones it needs. */
export const TEST_CODES = {
  charge: { code: 100, description: "Service", codeType: "charge" },
  payment: { code: 200, description: "Payment", codeType: "payment" },
  credit: { code: 300, description: "Credit", codeType: "adjust" },
  debit: { code: 400, description: "Debit", codeType: "debit" },
  info: { code: 50, description: "Note", codeType: "info" },
  /** A system code (negative numbers are the application's own). */
  lateFee: { code: -1, description: "Late fee", codeType: "charge" },
} as const satisfies Record<string, TestCode>;

export type StandardCode = keyof typeof TEST_CODES;

/** A charge, a payment, a credit and a debit code numbered 10 to 40 (the client summary tests'). */
export const TENS_CODES = {
  charge: { ...TEST_CODES.charge, code: 10 },
  payment: { ...TEST_CODES.payment, code: 20 },
  credit: { ...TEST_CODES.credit, code: 30 },
  debit: { ...TEST_CODES.debit, code: 40 },
} as const satisfies Record<string, TestCode>;

/**
 * Creates codes in a client, in the order given, each a standard one by name or one of its own;
 * answers their ids under the same keys.
 */
export async function createCodes<K extends string>(
  db: Database,
  clientId: number,
  wanted: Record<K, StandardCode | TestCode>,
): Promise<Record<K, number>> {
  const entries = (Object.entries(wanted) as [K, StandardCode | TestCode][]).map(
    ([name, code]): [K, TestCode] => [name, typeof code === "string" ? TEST_CODES[code] : code],
  );
  const rows = await db
    .insert(codes)
    .values(entries.map(([, code]) => ({ clientId, ...code })))
    .returning({ id: codes.id });
  return Object.fromEntries(entries.map(([name], index) => [name, rows[index]!.id])) as Record<K, number>;
}
