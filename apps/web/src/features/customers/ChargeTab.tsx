import type { Page } from "@cyclebill/domain";
import { Alert, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent, type ReactNode } from "react";
import { describeApiError } from "../../api/api-client";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import type { DraftErrors } from "./charge-drafts";
import {
  chargeFailure,
  EditableChargeTable,
  type ChargeColumn,
  type EditingRow,
} from "./EditableChargeTable";

// The editor's Stored Amounts and Recurring Charges tabs: the add form, the editable table and the delete
// confirmation. The two tabs differ only in their drafts, inputs, columns and words, which they pass in.

type Validated<Values, Field extends string> =
  { ok: true; data: Values } | { ok: false; errors: DraftErrors<Field> };

/** The part of a TanStack mutation the tab uses. */
type Mutation<Variables> = {
  mutate: (
    variables: Variables,
    options: { onSuccess?: () => void; onError?: (error: Error) => void },
  ) => void;
  isPending: boolean;
};

export type ChargeTabProps<Row extends { id: number }, Draft, Field extends string, Values> = {
  /** What a record is called, in lower case: "recurring charge", "recurring charges". */
  noun: { one: string; many: string };
  /** The add form's explanation under its title. */
  hint: ReactNode;
  customerId: number;
  list: { data?: Page<Row>; isPending: boolean; isError: boolean; error: Error | null };
  save: Mutation<{ id: number | null; body: Values & { customer: number } }>;
  remove: Mutation<number>;
  /** The draft's fields in form order, and the server's names that stand for one (auto_code → code). */
  fields: readonly Field[];
  rename: Partial<Record<string, Field>>;
  emptyDraft: () => Draft;
  draftOf: (row: Row) => Draft;
  validate: (draft: Draft) => Validated<Values, Field>;
  inputs: (draft: Draft, errors: DraftErrors<Field>, onChange: (next: Draft) => void) => ReactNode;
  columns: readonly ChargeColumn<Row>[];
  minWidth: number;
  /** The row's code as shown: names the row in its buttons and editor. */
  codeName: (row: Row) => string;
  /** The delete confirmation's question (row null while the dialog closes). */
  deleteQuestion: (row: Row | null) => ReactNode;
};

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const titleCased = (text: string) => text.split(" ").map(capitalized).join(" ");

export function ChargeTab<Row extends { id: number }, Draft, Field extends string, Values>(
  props: ChargeTabProps<Row, Draft, Field, Values>,
) {
  const { noun, customerId, list, save, remove } = props;
  const [draft, setDraft] = useState<Draft>(props.emptyDraft);
  const [errors, setErrors] = useState<DraftErrors<Field>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [editing, setEditing] = useState<EditingRow<Draft, Field> | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);

  const failureOf = (error: Error) => chargeFailure(error, props.fields, props.rename);

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = props.validate(draft);
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
          notifications.show({ color: "teal", message: `${capitalized(noun.one)} added.` });
          setDraft(props.emptyDraft());
        },
        onError: (error) => {
          // Spec: a failed add is logged and the form stays open with what was typed.
          console.warn(`Adding the ${noun.one} failed:`, error);
          const failure = failureOf(error);
          setErrors(failure.errors);
          setProblem(failure.problem);
        },
      },
    );
  };

  const saveEdit = () => {
    if (!editing) return;
    const result = props.validate(editing.draft);
    if (!result.ok) {
      setEditing({ ...editing, errors: result.errors, problem: null });
      return;
    }
    const id = editing.id;
    save.mutate(
      { id, body: { customer: customerId, ...result.data } },
      {
        onSuccess: () => {
          notifications.show({ color: "teal", message: `${capitalized(noun.one)} saved.` });
          setEditing((current) => (current?.id === id ? null : current));
        },
        onError: (error) => {
          // Spec: a failed update is logged and the row stays in editing.
          console.warn(`Saving the ${noun.one} failed:`, error);
          const failure = failureOf(error);
          setEditing((current) => (current?.id === id ? { ...current, ...failure } : current));
        },
      },
    );
  };

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="sm">
        <form onSubmit={add} noValidate aria-label={`Add a ${noun.one}`}>
          <Title order={3} size="h5" mb={2}>
            {`Add a ${noun.one}`}
          </Title>
          <Text size="xs" c="dimmed" mb="sm">
            {props.hint}
          </Text>
          {props.inputs(draft, errors, (next) => {
            setDraft(next);
            setErrors({});
          })}
          {problem ? (
            <Alert color="red" variant="light" mt="sm" withCloseButton onClose={() => setProblem(null)}>
              {problem}
            </Alert>
          ) : null}
          <Group justify="flex-end" mt="sm">
            <Button type="submit" loading={save.isPending && editing === null}>
              {`Add ${titleCased(noun.one)}`}
            </Button>
          </Group>
        </form>
      </Paper>

      <Paper withBorder p="md" radius="sm">
        {list.isError ? (
          <Alert color="red" title={`The ${noun.many} could not be loaded`}>
            {describeApiError(list.error)}
          </Alert>
        ) : (
          <EditableChargeTable
            label={capitalized(noun.many)}
            minWidth={props.minWidth}
            columns={props.columns}
            rows={list.data?.results ?? []}
            loading={list.isPending}
            emptyText={`No ${noun.many} yet.`}
            subject={(row) => `${noun.one} ${props.codeName(row)}`}
            editing={editing}
            saving={save.isPending}
            renderInputs={(current) =>
              props.inputs(current.draft, current.errors, (next) =>
                setEditing({ ...current, draft: next, errors: {} }),
              )
            }
            onEdit={(row) => setEditing({ id: row.id, draft: props.draftOf(row), errors: {}, problem: null })}
            onDelete={setDeleting}
            onCancel={() => setEditing(null)}
            onSave={saveEdit}
          />
        )}
      </Paper>

      <ConfirmDeleteDialog
        opened={deleting !== null}
        title={`Delete ${noun.one}`}
        confirmLabel={`Delete ${noun.one}`}
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifications.show({ color: "teal", message: `${capitalized(noun.one)} deleted.` });
              if (editing?.id === deleting.id) setEditing(null);
              setDeleting(null);
            },
          });
        }}
      >
        {props.deleteQuestion(deleting)}
      </ConfirmDeleteDialog>
    </Stack>
  );
}
