import { useEffect, useState } from "react";
import type { FieldErrors } from "../auth/form-validation";
import { announceCodeSaveFailed, announceCodeSaved } from "./code-messages";
import { draftOf, saveErrors, validateDraft, type CodeDraft, type CodeField } from "./code-draft";
import { useSaveCode, type Code } from "./codes-api";

/** How long a saved row stays marked as saved. */
const SAVED_MARK_MS = 2_500;

export type Editing = { id: number; draft: CodeDraft; errors: FieldErrors<CodeField> };
export type ChangeCodeDraft = <K extends CodeField>(field: K, value: CodeDraft[K]) => void;

/** The Codes table's row editor: one row at a time, saved in place and briefly marked as saved. */
export function useCodeEditing(clientId: number) {
  const saveCode = useSaveCode(clientId);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [savedId, setSavedId] = useState<number | null>(null);

  useEffect(() => {
    if (savedId === null) return;
    const timer = window.setTimeout(() => setSavedId(null), SAVED_MARK_MS);
    return () => window.clearTimeout(timer);
  }, [savedId]);

  const start = (code: Code) => setEditing({ id: code.id, draft: draftOf(code), errors: {} });
  const cancel = () => setEditing(null);

  const change: ChangeCodeDraft = (field, value) =>
    setEditing((current) =>
      current
        ? {
            ...current,
            draft: { ...current.draft, [field]: value },
            errors: { ...current.errors, [field]: undefined },
          }
        : current,
    );

  const save = () => {
    if (!editing) return;
    const result = validateDraft(editing.draft);
    if (!result.ok) {
      // A failed save stays in editing.
      setEditing({ ...editing, errors: result.errors });
      announceCodeSaveFailed();
      return;
    }
    saveCode.mutate(
      { id: editing.id, body: result.data },
      {
        onSuccess: (saved) => {
          setEditing(null);
          setSavedId(saved.id);
          announceCodeSaved();
        },
        onError: (error) => {
          const refused = saveErrors(error);
          setEditing((current) => (current ? { ...current, errors: refused.errors } : current));
          announceCodeSaveFailed(refused.detail);
        },
      },
    );
  };

  return { editing, savedId, saving: saveCode.isPending, start, cancel, change, save };
}
