import { DESCRIPTION_MAX_LENGTH } from "@cyclebill/domain";
import { Button, Checkbox, Group, Select, Table, Text, TextInput } from "@mantine/core";
import type { KeyboardEvent } from "react";
import { CODE_TYPE_OPTIONS } from "../../shared/codes";
import { isCodeType } from "./code-draft";
import type { ChangeCodeDraft, Editing } from "./use-code-editing";

/** A code being edited in place: Enter saves, Escape cancels. */
export function CodeEditingRow({
  editing,
  saving,
  onChange,
  onSave,
  onCancel,
}: {
  editing: Editing;
  saving: boolean;
  onChange: ChangeCodeDraft;
  onSave: () => void;
  onCancel: () => void;
}) {
  const { draft, errors } = editing;
  const keys = (event: KeyboardEvent) => {
    if (event.key === "Enter") {
      event.preventDefault();
      onSave();
    } else if (event.key === "Escape") {
      onCancel();
    }
  };
  return (
    <Table.Tr bg="var(--mantine-color-yellow-0)" data-state="editing" onKeyDown={keys}>
      <Table.Td>
        <TextInput
          size="xs"
          aria-label="Code"
          inputMode="numeric"
          value={draft.code}
          error={errors.code}
          onChange={(event) => onChange("code", event.currentTarget.value)}
        />
      </Table.Td>
      <Table.Td>
        <TextInput
          size="xs"
          aria-label="Name"
          value={draft.code_name}
          error={errors.code_name}
          onChange={(event) => onChange("code_name", event.currentTarget.value)}
        />
      </Table.Td>
      <Table.Td>
        <TextInput
          size="xs"
          aria-label="Description"
          value={draft.description}
          error={errors.description}
          rightSection={
            <Text size="10px" c={draft.description.trim().length > DESCRIPTION_MAX_LENGTH ? "red" : "dimmed"}>
              {draft.description.trim().length}
            </Text>
          }
          rightSectionWidth={32}
          onChange={(event) => onChange("description", event.currentTarget.value)}
        />
      </Table.Td>
      <Table.Td>
        <Select
          size="xs"
          aria-label="Type"
          data={CODE_TYPE_OPTIONS}
          allowDeselect={false}
          value={draft.code_type === "" ? null : draft.code_type}
          error={errors.code_type}
          onChange={(value) => onChange("code_type", isCodeType(value) ? value : "")}
        />
      </Table.Td>
      <Table.Td>
        <Checkbox
          aria-label="Taxable"
          checked={draft.taxable}
          onChange={(event) => onChange("taxable", event.currentTarget.checked)}
        />
      </Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Button size="compact-sm" onClick={onSave} loading={saving}>
            Save
          </Button>
          <Button size="compact-sm" variant="default" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
