import { addAmounts, isNegativeAmount } from "@cyclebill/domain";
import { formatAmount } from "../../lib/format";

/** What the add row created this session, by effect on the balance (payments never add to charges). */
export type Tally = { count: number; charges: string; credits: string };

export const EMPTY_TALLY: Tally = { count: 0, charges: "0.00", credits: "0.00" };

/** Adds one created entry by its signed effect (ledger_amount: a payment is negative). */
export function addToTally(tally: Tally, created: { ledger_amount: string }): Tally {
  const credit = isNegativeAmount(created.ledger_amount);
  return {
    count: tally.count + 1,
    charges: credit ? tally.charges : addAmounts(tally.charges, created.ledger_amount),
    credits: credit ? addAmounts(tally.credits, created.ledger_amount) : tally.credits,
  };
}

export function tallyNet(tally: Tally): string {
  return addAmounts(tally.charges, tally.credits);
}

/** "Charges $45.00 · Payments and credits -$20.00 · Net $25.00": the one way totals read. */
export function describeSplit(charges: string, credits: string, net: string): string {
  return `Charges ${formatAmount(charges)} · Payments and credits ${formatAmount(credits)} · Net ${formatAmount(net)}`;
}

/**
 * The Done message (spec: "N transaction(s) were created with a total amount"): the total is the
 * net effect on balances, followed by its charges and credits.
 */
export function createdMessage(tally: Tally): string {
  const created = `${tally.count} transaction${tally.count === 1 ? " was" : "s were"} created`;
  return `${created} with a total amount of ${formatAmount(tallyNet(tally))} (${describeSplit(tally.charges, tally.credits, tallyNet(tally))}).`;
}
