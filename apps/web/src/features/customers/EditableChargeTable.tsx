import { Alert, Button, Group, Stack, Table, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import { EditDeleteButtons } from "../shell/EditDeleteButtons";
import { EmptyRow, LoadingRows } from "../shell/LoadingRows";
import { draftErrorsFromBody, type DraftErrors } from "./charge-drafts";

// The editable table of the editor's Stored Amounts and Recurring Charges tabs: one row per record,
// edited in place (the row becomes the draft's inputs with Cancel and Save), with Edit and Delete.

/** A column: its header and cell; numbers are right-aligned in tabular figures. */
export type ChargeColumn<Row> = {
  header: string;
  numeric?: boolean;
  strong?: boolean;
  nowrap?: boolean;
  cell: (row: Row) => ReactNode;
};

/** A row being edited: its draft, the draft's errors, and what the server answered otherwise. */
export type EditingRow<Draft, Field extends string> = {
  id: number;
  draft: Draft;
  errors: DraftErrors<Field>;
  problem: string | null;
};

/** A failed save's answer as the form shows it: field errors on their inputs, anything else as a problem. */
export function chargeFailure<Field extends string>(
  error: Error,
  fields: readonly Field[],
  rename: Partial<Record<string, Field>>,
): { errors: DraftErrors<Field>; problem: string | null } {
  const parsed = draftErrorsFromBody<Field>(error instanceof ApiError ? error.body : null, fields, rename);
  return {
    errors: parsed.errors,
    problem: parsed.others[0] ?? (Object.keys(parsed.errors).length > 0 ? null : describeApiError(error)),
  };
}

/** A description, or a dimmed dash when there is none. */
export function descriptionCell(description: string): ReactNode {
  return (
    description || (
      <Text c="dimmed" span size="sm">
        —
      </Text>
    )
  );
}

export function EditableChargeTable<Row extends { id: number }, Draft, Field extends string>(props: {
  /** The table's accessible name ("Recurring charges"). */
  label: string;
  minWidth: number;
  columns: readonly ChargeColumn<Row>[];
  rows: readonly Row[];
  loading: boolean;
  emptyText: string;
  /** What a row is, for its buttons and its editor ("recurring charge 100 Service"). */
  subject: (row: Row) => string;
  editing: EditingRow<Draft, Field> | null;
  saving: boolean;
  renderInputs: (editing: EditingRow<Draft, Field>) => ReactNode;
  onEdit: (row: Row) => void;
  onDelete: (row: Row) => void;
  onCancel: () => void;
  onSave: () => void;
}) {
  const { editing } = props;
  const span = props.columns.length + 1;
  const numeric = { fontVariantNumeric: "tabular-nums" } as const;
  return (
    <Table.ScrollContainer minWidth={props.minWidth}>
      <Table striped verticalSpacing="xs" aria-label={props.label}>
        <Table.Thead>
          <Table.Tr>
            {props.columns.map((column) => (
              <Table.Th key={column.header} ta={column.numeric ? "right" : undefined}>
                {column.header}
              </Table.Th>
            ))}
            <Table.Th ta="right" w={150}>
              Actions
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.loading ? (
            <LoadingRows columns={span} rows={3} />
          ) : props.rows.length === 0 ? (
            <EmptyRow columns={span} look="compact">
              {props.emptyText}
            </EmptyRow>
          ) : (
            props.rows.map((row) =>
              editing?.id === row.id ? (
                <Table.Tr key={row.id} bg="teal.0">
                  <Table.Td colSpan={span}>
                    <Stack gap="sm" py={4} role="group" aria-label={`Edit ${props.subject(row)}`}>
                      {props.renderInputs(editing)}
                      {editing.problem ? (
                        <Alert color="red" variant="light">
                          {editing.problem}
                        </Alert>
                      ) : null}
                      <Group justify="flex-end" gap="xs">
                        <Button variant="default" size="xs" onClick={props.onCancel}>
                          Cancel
                        </Button>
                        <Button size="xs" onClick={props.onSave} loading={props.saving}>
                          Save
                        </Button>
                      </Group>
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              ) : (
                <Table.Tr key={row.id}>
                  {props.columns.map((column) => (
                    <Table.Td
                      key={column.header}
                      ta={column.numeric ? "right" : undefined}
                      fw={column.strong ? 600 : undefined}
                      style={{
                        ...(column.numeric ? numeric : {}),
                        ...(column.nowrap ? { whiteSpace: "nowrap" } : {}),
                      }}
                    >
                      {column.cell(row)}
                    </Table.Td>
                  ))}
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <EditDeleteButtons
                        subject={props.subject(row)}
                        onEdit={() => props.onEdit(row)}
                        onDelete={() => props.onDelete(row)}
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
  );
}
