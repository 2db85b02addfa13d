import type { RowAction, Transaction } from "./transactions-api";

/** Why mass edit cannot change this entry (it can change exactly the entries one may edit), or null. */
export function massEditRefusal(row: Transaction): string | null {
  if (row.editable) return null;
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

/** The row actions per the API's flags (Edit is offered on its own, when the entry is editable). */
export function actionsFor(row: Transaction): RowAction[] {
  const list: RowAction[] = [];
  if (row.editable) list.push({ kind: "delete", id: row.id });
  if (row.voidable) list.push({ kind: "void", id: row.id });
  if (row.void_deletable) list.push({ kind: "deleteVoid", id: row.id });
  if (row.reversible) list.push({ kind: "reversal", id: row.id });
  if (row.reverses_transaction !== null && row.transaction_status === "new" && row.invoice === null)
    list.push({ kind: "deleteReversal", id: row.id });
  return list;
}
