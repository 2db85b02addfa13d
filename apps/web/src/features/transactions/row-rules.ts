import type { RowAction, Transaction } from "./transactions-api";

/** Why mass edit cannot change this entry (it can change exactly the entries one may edit), or null. */
export function massEditRefusal(row: Transaction): string | null {
  if (row.actions.includes("edit")) return null;
  if (row.voided || row.transaction_type === "voids_a_transaction")
    return "Voided entries cannot be changed.";
  if (row.reverses_transaction !== null || row.reversed_by !== null)
    return "Reversed entries and reversals cannot be changed.";
  if (row.statement !== null) return "Entries already on a statement cannot be changed.";
  if (row.invoice !== null)
    return `On invoice ${String(row.invoice_num ?? row.invoice)}, which is no longer open: it cannot be changed.`;
  return "This entry cannot be changed.";
}

/** Row styles (spec section 2): stored amount mismatch as warning; invoice and processed rows distinct. */
export function rowStyle(row: Transaction): { bg?: string; kind: string } {
  if (row.invoice_status === "processed") return { bg: "var(--mantine-color-gray-1)", kind: "processed" };
  if (row.transaction_type === "invoice") return { bg: "var(--mantine-color-blue-light)", kind: "invoice" };
  if (!row.stored_amount_flag) return { bg: "var(--mantine-color-yellow-light)", kind: "warning" };
  return { kind: "plain" };
}

export const ACTION_LABELS: Record<RowAction["kind"], string> = {
  delete: "Delete",
  void: "Void",
  deleteVoid: "Delete Void",
  reversal: "Reversal",
  deleteReversal: "Delete Reversal",
};

/** What each action's confirmation says it will do. */
export const ACTION_CONFIRMATIONS: Record<RowAction["kind"], string> = {
  delete: "Delete this transaction? It is removed from the ledger.",
  void: "Void this transaction? A voiding entry is added so the pair nets to zero.",
  deleteVoid: "Delete this void? The voided transaction counts again.",
  reversal: "Reverse this transaction? A reversal entry is added.",
  deleteReversal: "Delete this reversal entry?",
};

const ROW_ACTION_KINDS: Partial<Record<Transaction["actions"][number], RowAction["kind"]>> = {
  delete: "delete",
  void: "void",
  delete_void: "deleteVoid",
  reverse: "reversal",
  delete_reversal: "deleteReversal",
};

/**
 * The row's confirmable actions: exactly those the server offers in the entry's `actions`
 * (Edit and the invoice link are shown on their own, from the same list).
 */
export function actionsFor(row: Transaction): RowAction[] {
  return row.actions.flatMap((action) => {
    const kind = ROW_ACTION_KINDS[action];
    return kind ? [{ kind, id: row.id }] : [];
  });
}

/** Whether the server offers this action on the entry. */
export function offers(row: Transaction, action: Transaction["actions"][number]): boolean {
  return row.actions.includes(action);
}
