import { useState } from "react";
import { tidyDecimal } from "./add-row-draft";
import {
  classifySaveError,
  editTransaction,
  useRefreshLedger,
  type SaveFailure,
  type Transaction,
} from "./transactions-api";

export type EditDraft = {
  description: string;
  serviceDate: string;
  quantity: string;
  rate: string;
  unitofmeasure: string;
};

export type RowEdit = ReturnType<typeof useRowEdit>;

/** In-place edit of one row of the table: its draft, saving (forced past a warning) and failure. */
export function useRowEdit(clientId: number | null) {
  const refresh = useRefreshLedger();
  const [editing, setEditing] = useState<{ id: number; draft: EditDraft } | null>(null);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<SaveFailure | null>(null);

  const startEdit = (row: Transaction) =>
    setEditing({
      id: row.id,
      draft: {
        description: row.description,
        serviceDate: row.serviceDate.slice(0, 10),
        quantity: tidyDecimal(row.quantity),
        rate: tidyDecimal(row.rate),
        unitofmeasure: String(row.unitofmeasure ?? 1),
      },
    });

  const saveEdit = async (row: Transaction, force = false) => {
    if (!editing) return;
    setSaving(true);
    try {
      await editTransaction(clientId, row.id, {
        customer: row.customer,
        code: row.code,
        description: editing.draft.description.trim(),
        quantity: editing.draft.quantity.trim() || "1",
        rate: editing.draft.rate.trim(),
        serviceDate: editing.draft.serviceDate,
        unitofmeasure: Number(editing.draft.unitofmeasure) || 1,
        force,
      });
      setEditing(null);
      setFailure(null);
      await refresh();
    } catch (error) {
      // A failed save stays in editing.
      setFailure(classifySaveError(error));
    } finally {
      setSaving(false);
    }
  };

  const patch = (values: Partial<EditDraft>) =>
    setEditing((current) => (current ? { ...current, draft: { ...current.draft, ...values } } : current));

  return {
    editing,
    saving,
    failure,
    setFailure,
    startEdit,
    saveEdit,
    patch,
    cancel: () => setEditing(null),
  };
}
