import { codeLabel } from "../../shared/codes";
import { Alert, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { describeApiError } from "../../api/api-client";
import { formatAmount } from "../../lib/format";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import {
  chargeFailure,
  descriptionCell,
  EditableChargeTable,
  type ChargeColumn,
  type EditingRow,
} from "./EditableChargeTable";
import {
  displayQuantity,
  emptyStoredDraft,
  storedDraftOf,
  trimRate,
  validateStoredDraft,
  type DraftErrors,
  type StoredDraft,
  type StoredField,
} from "./charge-drafts";
import {
  useCodeLookup,
  useDeleteStoredAmount,
  useSaveStoredAmount,
  useStoredAmounts,
  useUnitsOfMeasure,
  type StoredAmount,
} from "./customer-children-api";
import { StoredDraftInputs } from "./DraftEditors";

const STORED_FIELDS: readonly StoredField[] = ["code", "description", "rate", "quantity", "unitofmeasure"];
const RENAME: Partial<Record<string, StoredField>> = { storedCode: "code" };

type Editing = EditingRow<StoredDraft, StoredField>;

/** Stored Amounts: the code, description, rate and quantity offered when entering this customer's transactions. */
export function StoredAmountsTab({ clientId, customerId }: { clientId: number; customerId: number }) {
  const list = useStoredAmounts(clientId, customerId);
  const codes = useCodeLookup(clientId);
  const units = useUnitsOfMeasure();
  const save = useSaveStoredAmount(clientId, customerId);
  const remove = useDeleteStoredAmount(clientId, customerId);
  const [draft, setDraft] = useState<StoredDraft>(emptyStoredDraft);
  const [errors, setErrors] = useState<DraftErrors<StoredField>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<StoredAmount | null>(null);

  const unitName = (id: number | null) => units.find((unit) => unit.id === id)?.name ?? "—";
  const codeName = (id: number) => {
    const code = codes.byId.get(id);
    return code ? codeLabel(code) : codes.isPending ? "…" : `Code #${String(id)}`;
  };

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateStoredDraft(draft);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setProblem(null);
    save.mutate(
      { id: null, body: { customer: customerId, ...result.data } },
      {
        onSuccess: () => {
          notifications.show({ color: "teal", message: "Stored amount added." });
          setDraft(emptyStoredDraft());
        },
        onError: (error) => {
          // Spec: a failed add is logged and the form stays open with what was typed.
          console.warn("Adding the stored amount failed:", error);
          const failure = chargeFailure(error, STORED_FIELDS, RENAME);
          setErrors(failure.errors);
          setProblem(failure.problem);
        },
      },
    );
  };

  const saveEdit = () => {
    if (!editing) return;
    const result = validateStoredDraft(editing.draft);
    if (!result.ok) {
      setEditing({ ...editing, errors: result.errors, problem: null });
      return;
    }
    const id = editing.id;
    save.mutate(
      { id, body: { customer: customerId, ...result.data } },
      {
        onSuccess: () => {
          notifications.show({ color: "teal", message: "Stored amount saved." });
          setEditing((current) => (current?.id === id ? null : current));
        },
        onError: (error) => {
          // Spec: a failed update is logged and the row stays in editing.
          console.warn("Saving the stored amount failed:", error);
          const failure = chargeFailure(error, STORED_FIELDS, RENAME);
          setEditing((current) => (current?.id === id ? { ...current, ...failure } : current));
        },
      },
    );
  };

  const rows = list.data?.results ?? [];
  const columns: ChargeColumn<StoredAmount>[] = [
    { header: "Code", cell: (row) => codeName(row.storedCode) },
    { header: "Description", cell: (row) => descriptionCell(row.description) },
    { header: "Rate", numeric: true, cell: (row) => trimRate(row.rate) },
    { header: "Quantity", numeric: true, cell: (row) => displayQuantity(row.quantity) },
    { header: "Units", cell: (row) => unitName(row.unitofmeasure) },
    { header: "Amount", numeric: true, strong: true, cell: (row) => formatAmount(row.storedAmount) },
  ];

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="sm">
        <form onSubmit={add} noValidate aria-label="Add a stored amount">
          <Title order={3} size="h5" mb={2}>
            Add a stored amount
          </Title>
          <Text size="xs" c="dimmed" mb="sm">
            Offered when a transaction is entered for this customer with the same code. Amount = quantity ×
            rate.
          </Text>
          <StoredDraftInputs
            clientId={clientId}
            draft={draft}
            errors={errors}
            units={units}
            onChange={(next) => {
              setDraft(next);
              setErrors({});
            }}
          />
          {problem ? (
            <Alert color="red" variant="light" mt="sm" withCloseButton onClose={() => setProblem(null)}>
              {problem}
            </Alert>
          ) : null}
          <Group justify="flex-end" mt="sm">
            <Button type="submit" loading={save.isPending && editing === null}>
              Add Stored Amount
            </Button>
          </Group>
        </form>
      </Paper>

      <Paper withBorder p="md" radius="sm">
        {list.isError ? (
          <Alert color="red" title="The stored amounts could not be loaded">
            {describeApiError(list.error)}
          </Alert>
        ) : (
          <EditableChargeTable
            label="Stored amounts"
            minWidth={720}
            columns={columns}
            rows={rows}
            loading={list.isPending}
            emptyText="No stored amounts yet."
            subject={(row) => `stored amount ${codeName(row.storedCode)}`}
            editing={editing}
            saving={save.isPending}
            renderInputs={(current) => (
              <StoredDraftInputs
                clientId={clientId}
                draft={current.draft}
                errors={current.errors}
                units={units}
                onChange={(next) => setEditing({ ...current, draft: next, errors: {} })}
              />
            )}
            onEdit={(row) =>
              setEditing({ id: row.id, draft: storedDraftOf(row, codes.byId), errors: {}, problem: null })
            }
            onDelete={setDeleting}
            onCancel={() => setEditing(null)}
            onSave={saveEdit}
          />
        )}
      </Paper>

      <ConfirmDeleteDialog
        opened={deleting !== null}
        title="Delete stored amount"
        confirmLabel="Delete stored amount"
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifications.show({ color: "teal", message: "Stored amount deleted." });
              if (editing?.id === deleting.id) setEditing(null);
              setDeleting(null);
            },
          });
        }}
      >
        Delete the stored amount for <strong>{deleting ? codeName(deleting.storedCode) : ""}</strong> (
        {deleting ? formatAmount(deleting.storedAmount) : ""})? Transactions already entered keep their
        amounts.
      </ConfirmDeleteDialog>
    </Stack>
  );
}
