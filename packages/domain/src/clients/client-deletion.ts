/**
 * What a client holds that its deletion would destroy (issue 30, point 6). A client with any ledger
 * entry, statement or payment keeps its books: it cannot be deleted, only made inactive (status I
 * or D stops its billing). A client without any deletes after the user types its name.
 */
export type ClientHoldings = {
  customers: number;
  ledger_entries: number;
  statements: number;
  payments: number;
  /** True when nothing above but customers is held: the client may be deleted. */
  deletable: boolean;
  /** Why it cannot be deleted, as the 409 says it; null when it can. */
  refusal: string | null;
};

function counted(total: number, one: string, many: string): string {
  return `${total.toLocaleString("en-US")} ${total === 1 ? one : many}`;
}

/** The holdings of a client and whether it may be deleted, from its counts. */
export function clientHoldings(
  clientName: string,
  counts: Omit<ClientHoldings, "deletable" | "refusal">,
): ClientHoldings {
  const held = [
    counts.ledger_entries > 0 ? counted(counts.ledger_entries, "ledger entry", "ledger entries") : null,
    counts.statements > 0 ? counted(counts.statements, "statement", "statements") : null,
    counts.payments > 0 ? counted(counts.payments, "payment", "payments") : null,
  ].filter((item): item is string => item !== null);
  const listed = held.length > 1 ? `${held.slice(0, -1).join(", ")} and ${held.at(-1) ?? ""}` : held[0];
  return {
    ...counts,
    deletable: held.length === 0,
    refusal:
      held.length === 0
        ? null
        : `${clientName} cannot be deleted: it holds ${listed ?? ""}. Make it inactive instead (status I InActive or D Disabled stops its billing).`,
  };
}
