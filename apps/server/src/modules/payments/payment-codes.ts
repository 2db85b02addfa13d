import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { codes } from "../../db/tables.js";

// The system codes gateway payments post under (negative: made by the system, never edited).
export const CARD_PAYMENT_CODE = -5;
export const ACH_PAYMENT_CODE = -6;

const PAYMENT_CODES = {
  card: { code: CARD_PAYMENT_CODE, codeName: "Card payment", description: "Card payment" },
  ach: { code: ACH_PAYMENT_CODE, codeName: "ACH payment", description: "ACH payment" },
} as const;

/** The client's card- or ACH-payment code, created when missing (a concurrent creator wins the key). */
export async function ensurePaymentCode(
  tx: Executor,
  clientId: number,
  method: "card" | "ach",
): Promise<number> {
  const wanted = PAYMENT_CODES[method];
  const find = async () => {
    const [row] = await tx
      .select({ id: codes.id })
      .from(codes)
      .where(and(eq(codes.clientId, clientId), eq(codes.code, wanted.code)));
    return row?.id;
  };
  // Nearly always there already: one read per payment, the insert only for a client's first.
  const existing = await find();
  if (existing !== undefined) return existing;
  await tx
    .insert(codes)
    .values({ clientId, ...wanted, codeType: "payment" })
    .onConflictDoNothing();
  const made = await find();
  if (made === undefined) throw new Error(`${method} payment code missing`);
  return made;
}

/** Codes that demo data and new clients start with. */
export const PAYMENT_SYSTEM_CODES = Object.values(PAYMENT_CODES);
