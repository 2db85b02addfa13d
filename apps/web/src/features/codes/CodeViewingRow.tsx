import { CODE_TYPE_LABELS, type CodeType } from "@cyclebill/domain";
import { Badge, Checkbox, Group, Table, Text, Tooltip } from "@mantine/core";
import { EditDeleteButtons } from "../shell/EditDeleteButtons";
import { isSystemCode, type Code } from "./codes-api";
import type { MassEdit } from "./use-mass-edit";

/** Spec section 9: a description of 30 characters or more gets a tooltip. */
export const DESCRIPTION_TOOLTIP_LENGTH = 30;

/** A code as the table shows it: its fields, and Edit/Delete (or a tick box in mass edit). */
export function CodeViewingRow({
  code,
  saved,
  mass,
  busy,
  onSelect,
  onEdit,
  onDelete,
}: {
  code: Code;
  saved: boolean;
  mass: MassEdit | null;
  busy: boolean;
  onSelect: (on: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const system = isSystemCode(code);
  const selected = mass?.selected.has(code.id) ?? false;
  return (
    <Table.Tr
      bg={saved ? "var(--mantine-color-teal-0)" : selected ? "var(--mantine-color-teal-light)" : undefined}
      data-state={saved ? "saved" : "viewing"}
    >
      {mass ? (
        <Table.Td>
          <Checkbox
            aria-label={`Select code ${String(code.code)}`}
            disabled={system}
            checked={selected}
            onChange={(event) => onSelect(event.currentTarget.checked)}
          />
        </Table.Td>
      ) : null}
      <Table.Td fw={600} style={{ fontVariantNumeric: "tabular-nums" }}>
        {code.code}
      </Table.Td>
      <Table.Td>
        <Text size="sm" truncate="end">
          {code.code_name || (
            <Text span c="dimmed">
              —
            </Text>
          )}
        </Text>
      </Table.Td>
      <Table.Td>
        <Description text={code.description} />
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={TYPE_COLORS[code.code_type]} tt="none" fw={500}>
          {CODE_TYPE_LABELS[code.code_type]}
        </Badge>
      </Table.Td>
      <Table.Td>{code.taxable ? "Yes" : "No"}</Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {saved ? (
            <Badge color="teal" variant="light" tt="none">
              Saved
            </Badge>
          ) : null}
          {system ? (
            <Tooltip label="System codes cannot be changed or deleted">
              <Badge color="gray" variant="outline" tt="none">
                System
              </Badge>
            </Tooltip>
          ) : mass ? null : (
            <>
              <EditDeleteButtons
                subject={`code ${String(code.code)}`}
                disabled={busy}
                onEdit={onEdit}
                onDelete={onDelete}
              />
            </>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

const TYPE_COLORS: Record<CodeType, string> = {
  info: "gray",
  charge: "blue",
  payment: "teal",
  adjust: "orange",
  debit: "grape",
  percent_discount: "cyan",
  flat_discount: "cyan",
};

function Description({ text }: { text: string }) {
  if (text === "")
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const body = (
    <Text size="sm" truncate="end">
      {text}
    </Text>
  );
  if (text.length < DESCRIPTION_TOOLTIP_LENGTH) return body;
  return (
    <Tooltip label={text} multiline maw={360} openDelay={200}>
      {body}
    </Tooltip>
  );
}
