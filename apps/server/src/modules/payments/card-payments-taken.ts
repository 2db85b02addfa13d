import { eq } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { clients } from "../../db/tables.js";

/** The client columns that decide whether it takes card payments. */
export const gatewayKeyColumns = {
  accountId: clients.bluepayAccountId,
  sealed: clients.bluepaySecretKeyEncrypted,
};

export type GatewayKeyRow = { accountId: string; sealed: string | null };

/**
 * THE rule for "this client takes card (and ACH) payments": a BluePay account id and a secret key
 * stored. Statements print and email a pay link, the pay page shows its form, payment info says
 * takes_card_payments, and card runs start only when this holds.
 */
export function takesCardPayments(row: GatewayKeyRow | undefined | null): boolean {
  return !!row && row.accountId.trim() !== "" && row.sealed !== null && row.sealed !== "";
}

/** takesCardPayments of the client with this id (false when there is none). */
export async function clientTakesCardPayments(db: Executor, clientId: number): Promise<boolean> {
  const [row] = await db.select(gatewayKeyColumns).from(clients).where(eq(clients.id, clientId));
  return takesCardPayments(row);
}
