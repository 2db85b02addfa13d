import { codeLabel } from "../../shared/codes";
import { FREQUENCY_LABELS } from "@cyclebill/domain";
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { describeApiError } from "../../api/api-client";
import { formatAmount, formatIsoDate } from "../../lib/format";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import {
  chargeFailure,
  descriptionCell,
  EditableChargeTable,
  type ChargeColumn,
  type EditingRow,
} from "./EditableChargeTable";
import {
  emptyRecurringDraft,
  monthName,
  recurringDraftOf,
  trimRate,
  validateRecurringDraft,
  type DraftErrors,
  type RecurringDraft,
  type RecurringField,
} from "./charge-drafts";
import {
  useCodeLookup,
  useDeleteRecurringCharge,
  useRecurringCharges,
  useSaveRecurringCharge,
  type RecurringCharge,
} from "./customer-children-api";
import { RecurringDraftInputs } from "./DraftEditors";

const RECURRING_FIELDS: readonly RecurringField[] = [
  "code",
  "description",
  "rate",
  "quantity",
  "start_month",
  "end_month",
  "frequency",
  "arrears",
  "unitofmeasure",
  "start_date",
];
const RENAME: Partial<Record<string, RecurringField>> = { auto_code: "code" };

type Editing = EditingRow<RecurringDraft, RecurringField>;

function season(charge: Pick<RecurringCharge, "start_month" | "end_month">): string {
  if (charge.start_month === 1 && charge.end_month === 12) return "All year";
  if (charge.start_month === charge.end_month) return `${monthName(charge.start_month)} only`;
  return `${monthName(charge.start_month).slice(0, 3)} – ${monthName(charge.end_month).slice(0, 3)}`;
}

/** The start date the user gave it, or the day it was added (the run also waits for the open date). */
function billsFrom(charge: Pick<RecurringCharge, "start_date" | "created">): string {
  return formatIsoDate(charge.start_date ?? charge.created.slice(0, 10));
}

/** Recurring Charges: charges the production run bills on their schedule (season, frequency, Advance or Arrears). */
export function RecurringChargesTab({ clientId, customerId }: { clientId: number; customerId: number }) {
  const list = useRecurringCharges(clientId, customerId);
  const codes = useCodeLookup(clientId);
  const save = useSaveRecurringCharge(clientId, customerId);
  const remove = useDeleteRecurringCharge(clientId, customerId);
  const [draft, setDraft] = useState<RecurringDraft>(emptyRecurringDraft);
  const [errors, setErrors] = useState<DraftErrors<RecurringField>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<RecurringCharge | null>(null);

  const codeName = (id: number) => {
    const code = codes.byId.get(id);
    return code ? codeLabel(code) : codes.isPending ? "…" : `Code #${String(id)}`;
  };

  const failureOf = (error: Error) => chargeFailure(error, RECURRING_FIELDS, RENAME);

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateRecurringDraft(draft);
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
          notifications.show({ color: "teal", message: "Recurring charge added." });
          setDraft(emptyRecurringDraft());
        },
        onError: (error) => {
          // Spec: a failed add is logged and the form stays open with what was typed.
          console.warn("Adding the recurring charge failed:", error);
          const failure = failureOf(error);
          setErrors(failure.errors);
          setProblem(failure.problem);
        },
      },
    );
  };

  const saveEdit = () => {
    if (!editing) return;
    const result = validateRecurringDraft(editing.draft);
    if (!result.ok) {
      setEditing({ ...editing, errors: result.errors, problem: null });
      return;
    }
    const id = editing.id;
    save.mutate(
      { id, body: { customer: customerId, ...result.data } },
      {
        onSuccess: () => {
          notifications.show({ color: "teal", message: "Recurring charge saved." });
          setEditing((current) => (current?.id === id ? null : current));
        },
        onError: (error) => {
          // Spec: a failed update is logged and the row stays in editing.
          console.warn("Saving the recurring charge failed:", error);
          const failure = failureOf(error);
          setEditing((current) => (current?.id === id ? { ...current, ...failure } : current));
        },
      },
    );
  };

  const rows = list.data?.results ?? [];
  const columns: ChargeColumn<RecurringCharge>[] = [
    { header: "Code", cell: (row) => codeName(row.auto_code) },
    { header: "Description", cell: (row) => descriptionCell(row.description) },
    { header: "Rate", numeric: true, cell: (row) => trimRate(row.rate) },
    { header: "Qty", numeric: true, cell: (row) => row.quantity },
    { header: "Amount", numeric: true, strong: true, cell: (row) => formatAmount(row.auto_amount) },
    { header: "Months", nowrap: true, cell: season },
    { header: "Frequency", cell: (row) => FREQUENCY_LABELS[row.frequency] },
    {
      header: "Billed in",
      cell: (row) => (
        <Badge
          variant="light"
          color={row.arrears ? "grape" : "blue"}
          tt="none"
          style={{ minWidth: "fit-content" }}
        >
          {row.finance_type}
        </Badge>
      ),
    },
    { header: "Bills from", nowrap: true, cell: billsFrom },
  ];

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="sm">
        <form onSubmit={add} noValidate aria-label="Add a recurring charge">
          <Title order={3} size="h5" mb={2}>
            Add a recurring charge
          </Title>
          <Text size="xs" c="dimmed" mb="sm">
            Billed by the production run from the start month to the end month at the chosen frequency.
            Advance bills the month the cycle runs in; Arrears bills the month just ended. It bills from its
            start date (blank: the day it is added), never before the customer&apos;s open date.
          </Text>
          <RecurringDraftInputs
            clientId={clientId}
            draft={draft}
            errors={errors}
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
              Add Recurring Charge
            </Button>
          </Group>
        </form>
      </Paper>

      <Paper withBorder p="md" radius="sm">
        {list.isError ? (
          <Alert color="red" title="The recurring charges could not be loaded">
            {describeApiError(list.error)}
          </Alert>
        ) : (
          <EditableChargeTable
            label="Recurring charges"
            minWidth={940}
            columns={columns}
            rows={rows}
            loading={list.isPending}
            emptyText="No recurring charges yet."
            subject={(row) => `recurring charge ${codeName(row.auto_code)}`}
            editing={editing}
            saving={save.isPending}
            renderInputs={(current) => (
              <RecurringDraftInputs
                clientId={clientId}
                draft={current.draft}
                errors={current.errors}
                onChange={(next) => setEditing({ ...current, draft: next, errors: {} })}
              />
            )}
            onEdit={(row) =>
              setEditing({ id: row.id, draft: recurringDraftOf(row, codes.byId), errors: {}, problem: null })
            }
            onDelete={setDeleting}
            onCancel={() => setEditing(null)}
            onSave={saveEdit}
          />
        )}
      </Paper>

      <ConfirmDeleteDialog
        opened={deleting !== null}
        title="Delete recurring charge"
        confirmLabel="Delete recurring charge"
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifications.show({ color: "teal", message: "Recurring charge deleted." });
              if (editing?.id === deleting.id) setEditing(null);
              setDeleting(null);
            },
          });
        }}
      >
        Delete the recurring charge <strong>{deleting ? codeName(deleting.auto_code) : ""}</strong> (
        {deleting ? formatAmount(deleting.auto_amount) : ""})? It will not be billed again. Charges already
        billed stay.
      </ConfirmDeleteDialog>
    </Stack>
  );
}
