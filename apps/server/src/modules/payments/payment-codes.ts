import type { Executor } from "../../db/database.js";
import { ensureSystemCode } from "../codes/ensure-system-code.js";

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
  return ensureSystemCode(tx, clientId, { ...PAYMENT_CODES[method], codeType: "payment" });
}

/** Codes that demo data and new clients start with. */
export const PAYMENT_SYSTEM_CODES = Object.values(PAYMENT_CODES);
