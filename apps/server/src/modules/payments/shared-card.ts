import { sql, type SQL } from "drizzle-orm";

// The gateway scrubs a charge identical to a recent one (same card, same amount) as DUPLICATE.
// In a card run that is right for a retry of one customer's charge, and wrong for two customers
// who pay with one card (a family's accounts) and owe the same: only then does the run send
// DUPLICATE_OVERRIDE. We never keep the card number, so "the same card" is the same mask, card
// type and expiry on another customer's stored card.

/**
 * Whether another customer of the client has the same stored card as this customer and is being
 * charged (in this run) or owes the same amount: a boolean SQL expression, read with the customer
 * a card run is about to charge. It only reads balances; nothing here writes them.
 */
export function sharesCardAndAmountSql(
  clientId: number,
  customerId: number,
  cardRunId: number,
  amount: SQL,
): SQL {
  return sql`exists (
      select 1
      from customer_payment_methods mine
      join customer_payment_methods other
        on other.client_id = mine.client_id and other.customer_id <> mine.customer_id
       and other.kind = 'card' and other.mask = mine.mask and other.card_type = mine.card_type
       and other.expiry = mine.expiry
      join customers oc on oc.client_id = other.client_id and oc.id = other.customer_id and not oc.deleted
      where mine.client_id = ${clientId} and mine.customer_id = ${customerId} and mine.kind = 'card'
        and mine.mask <> ''
        and (oc.total_balance = ${amount}
             or exists (select 1 from payment_attempts oa
                        where oa.client_id = other.client_id and oa.customer_id = other.customer_id
                          and oa.card_run_id = ${cardRunId} and oa.kind = 'sale'
                          and oa.amount = ${amount})))`;
}
