import { codeLabel } from "../../shared/codes";
import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import { formatAmount } from "../../lib/format";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { EditDeleteButtons } from "../shell/EditDeleteButtons";
import { LoadingRows } from "../shell/LoadingRows";
import {
  displayQuantity,
  draftErrorsFromBody,
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

type Editing = { id: number; draft: StoredDraft; errors: DraftErrors<StoredField>; problem: string | null };

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
          const parsed = draftErrorsFromBody<StoredField>(
            error instanceof ApiError ? error.body : null,
            STORED_FIELDS,
            RENAME,
          );
          setErrors(parsed.errors);
          setProblem(
            parsed.others[0] ?? (Object.keys(parsed.errors).length > 0 ? null : describeApiError(error)),
          );
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
          const parsed = draftErrorsFromBody<StoredField>(
            error instanceof ApiError ? error.body : null,
            STORED_FIELDS,
            RENAME,
          );
          setEditing((current) =>
            current?.id === id
              ? {
                  ...current,
                  errors: parsed.errors,
                  problem:
                    parsed.others[0] ??
                    (Object.keys(parsed.errors).length > 0 ? null : describeApiError(error)),
                }
              : current,
          );
        },
      },
    );
  };

  const rows = list.data?.results ?? [];

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
          <Table.ScrollContainer minWidth={720}>
            <Table striped verticalSpacing="xs" aria-label="Stored amounts">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Code</Table.Th>
                  <Table.Th>Description</Table.Th>
                  <Table.Th ta="right">Rate</Table.Th>
                  <Table.Th ta="right">Quantity</Table.Th>
                  <Table.Th>Units</Table.Th>
                  <Table.Th ta="right">Amount</Table.Th>
                  <Table.Th ta="right" w={150}>
                    Actions
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.isPending ? (
                  <LoadingRows columns={7} rows={3} />
                ) : rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={7}>
                      <Text c="dimmed" ta="center" py="md" size="sm">
                        No stored amounts yet.
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  rows.map((row) =>
                    editing?.id === row.id ? (
                      <Table.Tr key={row.id} bg="teal.0">
                        <Table.Td colSpan={7}>
                          <Stack
                            gap="sm"
                            py={4}
                            aria-label={`Edit stored amount ${codeName(row.storedCode)}`}
                            role="group"
                          >
                            <StoredDraftInputs
                              clientId={clientId}
                              draft={editing.draft}
                              errors={editing.errors}
                              units={units}
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
                        <Table.Td>{codeName(row.storedCode)}</Table.Td>
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
                        <Table.Td ta="right" style={{ fontVariantNumeric: "tabular-nums" }}>
                          {displayQuantity(row.quantity)}
                        </Table.Td>
                        <Table.Td>{unitName(row.unitofmeasure)}</Table.Td>
                        <Table.Td ta="right" fw={600} style={{ fontVariantNumeric: "tabular-nums" }}>
                          {formatAmount(row.storedAmount)}
                        </Table.Td>
                        <Table.Td>
                          <Group gap={4} justify="flex-end" wrap="nowrap">
                            <EditDeleteButtons
                              subject={`stored amount ${codeName(row.storedCode)}`}
                              onEdit={() =>
                                setEditing({
                                  id: row.id,
                                  draft: storedDraftOf(row, codes.byId),
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
