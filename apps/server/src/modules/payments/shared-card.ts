import { sql } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";

// The gateway scrubs a charge identical to a recent one (same card, same amount) as DUPLICATE.
// In a card run that is right for a retry of one customer's charge, and wrong for two customers
// who pay with one card (a family's accounts) and owe the same: only then does the run send
// DUPLICATE_OVERRIDE. We never keep the card number, so "the same card" is the same mask, card
// type and expiry on another customer's stored card.

/**
 * Whether another customer of the client has the same stored card as this customer and is being
 * charged (in this run) or owes the same amount.
 */
export async function sharesCardAndAmount(
  db: Database,
  clientId: number,
  customerId: number,
  cardRunId: number,
  amount: string,
): Promise<boolean> {
  const [row] = await queryRows<{ shared: boolean }>(
    db,
    sql`select exists (
          select 1
          from customer_payment_methods mine
          join customer_payment_methods other
            on other.client_id = mine.client_id and other.customer_id <> mine.customer_id
           and other.kind = 'card' and other.mask = mine.mask and other.card_type = mine.card_type
           and other.expiry = mine.expiry
          join customers c on c.client_id = other.client_id and c.id = other.customer_id and not c.deleted
          where mine.client_id = ${clientId} and mine.customer_id = ${customerId} and mine.kind = 'card'
            and mine.mask <> ''
            and (c.total_balance = ${amount}::numeric
                 or exists (select 1 from payment_attempts a
                            where a.client_id = other.client_id and a.customer_id = other.customer_id
                              and a.card_run_id = ${cardRunId} and a.kind = 'sale'
                              and a.amount = ${amount}::numeric))
        ) as shared`,
  );
  return row?.shared === true;
}
