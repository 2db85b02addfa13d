import { codeLabel } from "../../shared/codes";
import { FREQUENCY_LABELS } from "@cyclebill/domain";
import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import { formatAmount } from "../../lib/format";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { EditDeleteButtons } from "../shell/EditDeleteButtons";
import { LoadingRows } from "../shell/LoadingRows";
import {
  draftErrorsFromBody,
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
];
const RENAME: Partial<Record<string, RecurringField>> = { auto_code: "code" };

type Editing = {
  id: number;
  draft: RecurringDraft;
  errors: DraftErrors<RecurringField>;
  problem: string | null;
};

function season(charge: Pick<RecurringCharge, "start_month" | "end_month">): string {
  if (charge.start_month === 1 && charge.end_month === 12) return "All year";
  if (charge.start_month === charge.end_month) return `${monthName(charge.start_month)} only`;
  return `${monthName(charge.start_month).slice(0, 3)} – ${monthName(charge.end_month).slice(0, 3)}`;
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

  const failureOf = (error: Error) => {
    const parsed = draftErrorsFromBody<RecurringField>(
      error instanceof ApiError ? error.body : null,
      RECURRING_FIELDS,
      RENAME,
    );
    return {
      errors: parsed.errors,
      problem: parsed.others[0] ?? (Object.keys(parsed.errors).length > 0 ? null : describeApiError(error)),
    };
  };

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
  const columns = 9;

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="sm">
        <form onSubmit={add} noValidate aria-label="Add a recurring charge">
          <Title order={3} size="h5" mb={2}>
            Add a recurring charge
          </Title>
          <Text size="xs" c="dimmed" mb="sm">
            Billed by the production run from the start month to the end month at the chosen frequency.
            Advance bills the month the cycle runs in; Arrears bills the month just ended.
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
          <Table.ScrollContainer minWidth={860}>
            <Table striped verticalSpacing="xs" aria-label="Recurring charges">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Code</Table.Th>
                  <Table.Th>Description</Table.Th>
                  <Table.Th ta="right">Rate</Table.Th>
                  <Table.Th ta="right">Qty</Table.Th>
                  <Table.Th ta="right">Amount</Table.Th>
                  <Table.Th>Months</Table.Th>
                  <Table.Th>Frequency</Table.Th>
                  <Table.Th>Billed in</Table.Th>
                  <Table.Th ta="right" w={150}>
                    Actions
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.isPending ? (
                  <LoadingRows columns={columns} rows={3} />
                ) : rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={columns}>
                      <Text c="dimmed" ta="center" py="md" size="sm">
                        No recurring charges yet.
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  rows.map((row) =>
                    editing?.id === row.id ? (
                      <Table.Tr key={row.id} bg="teal.0">
                        <Table.Td colSpan={columns}>
                          <Stack
                            gap="sm"
                            py={4}
                            role="group"
                            aria-label={`Edit recurring charge ${codeName(row.auto_code)}`}
                          >
                            <RecurringDraftInputs
                              clientId={clientId}
                              draft={editing.draft}
                              errors={editing.errors}
                              onChange={(next) => setEditing({ ...editing, draft: next, errors: {} })}
                            />
                            {editing.problem ? (
                              <Alert color="red" variant="light">
                                {editing.problem}
                              </Alert>
                            ) : null}
                            <Group justify="flex-end" gap="xs">
                              <Button variant="default" size="xs" onClick={() => setEditing(null)}>
                                Cancel
                              </Button>
                              <Button size="xs" onClick={saveEdit} loading={save.isPending}>
                                Save
                              </Button>
                            </Group>
                          </Stack>
                        </Table.Td>
                      </Table.Tr>
                    ) : (
                      <Table.Tr key={row.id}>
                        <Table.Td>{codeName(row.auto_code)}</Table.Td>
                        <Table.Td>
                          {row.description || (
                            <Text c="dimmed" span size="sm">
                              —
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td ta="right" style={{ fontVariantNumeric: "tabular-nums" }}>
                          {trimRate(row.rate)}
                        </Table.Td>
                        <Table.Td ta="right">{row.quantity}</Table.Td>
                        <Table.Td ta="right" fw={600} style={{ fontVariantNumeric: "tabular-nums" }}>
                          {formatAmount(row.auto_amount)}
                        </Table.Td>
                        <Table.Td style={{ whiteSpace: "nowrap" }}>{season(row)}</Table.Td>
                        <Table.Td>{FREQUENCY_LABELS[row.frequency]}</Table.Td>
                        <Table.Td>
                          <Badge variant="light" color={row.arrears ? "grape" : "blue"} tt="none">
                            {row.finance_type}
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          <Group gap={4} justify="flex-end" wrap="nowrap">
                            <EditDeleteButtons
                              subject={`recurring charge ${codeName(row.auto_code)}`}
                              onEdit={() =>
                                setEditing({
                                  id: row.id,
                                  draft: recurringDraftOf(row, codes.byId),
                                  errors: {},
                                  problem: null,
                                })
                              }
                              onDelete={() => setDeleting(row)}
                            />
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ),
                  )
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
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
