import { Button, Group, Paper, Select, Text } from "@mantine/core";
import { CODE_TYPE_OPTIONS } from "../../shared/codes";
import { isCodeType } from "./code-draft";
import type { MassEdit } from "./use-mass-edit";
import { countOf } from "../../lib/plural";

const TAXABLE_OPTIONS = [
  { value: "keep", label: "Keep as is" },
  { value: "yes", label: "Taxable" },
  { value: "no", label: "Not taxable" },
];

/** The bar above the codes table in mass edit: the new type and taxable for every ticked code. */
export function MassEditBar({
  mass,
  saving,
  onChange,
  onSave,
  onClose,
}: {
  mass: MassEdit;
  saving: boolean;
  onChange: (mass: MassEdit) => void;
  onSave: () => void;
  onClose: () => void;
}) {
  const count = mass.selected.size;
  const nothingToChange = mass.codeType === "" && mass.taxable === "keep";
  return (
    <Paper
      withBorder
      p="sm"
      mb="sm"
      bg="var(--mantine-color-teal-0)"
      component="section"
      aria-label="Mass edit"
    >
      <Group justify="space-between" align="flex-end" gap="sm">
        <Group align="flex-end" gap="sm">
          <div>
            <Text fw={600} size="sm">
              Change a field for {countOf(count, "selected code")}
            </Text>
            <Text size="xs" c="dimmed">
              Tick the codes below, choose the new values, then save.
            </Text>
          </div>
          <Select
            size="xs"
            label="Type"
            placeholder="Keep as is"
            clearable
            w={200}
            data={CODE_TYPE_OPTIONS}
            value={mass.codeType === "" ? null : mass.codeType}
            onChange={(value) => onChange({ ...mass, codeType: isCodeType(value) ? value : "" })}
          />
          <Select
            size="xs"
            label="Taxable"
            w={150}
            allowDeselect={false}
            data={TAXABLE_OPTIONS}
            value={mass.taxable}
            onChange={(value) =>
              onChange({ ...mass, taxable: value === "yes" || value === "no" ? value : "keep" })
            }
          />
        </Group>
        <Group gap="sm">
          <Button size="sm" onClick={onSave} loading={saving} disabled={count === 0 || nothingToChange}>
            Save Changes
          </Button>
          <Button size="sm" variant="default" onClick={onClose} disabled={saving}>
            Close Mass Edit
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
