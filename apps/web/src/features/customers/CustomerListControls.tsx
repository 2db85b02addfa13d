import { Button, Checkbox, Group, Popover, ScrollArea, Stack, Text } from "@mantine/core";
import { CUSTOMER_COLUMNS, DEFAULT_COLUMN_KEYS } from "./customer-columns";

/** How many customers are ticked, with Clear and Print Address Labels for them. */
export function SelectionBar({
  count,
  onClear,
  onPrint,
}: {
  count: number;
  onClear: () => void;
  onPrint: () => void;
}) {
  return (
    <Group gap="xs">
      <Text size="sm" c="dimmed" aria-live="polite">
        {count === 0 ? "Select customers to print address labels" : `${count} selected`}
      </Text>
      {count > 0 ? (
        <Button size="compact-sm" variant="subtle" onClick={onClear}>
          Clear
        </Button>
      ) : null}
      <Button size="compact-sm" variant="light" disabled={count === 0} onClick={onPrint}>
        Print Address Labels
      </Button>
    </Group>
  );
}

/** The optional columns of the customer list, chosen by the user (kept in local storage by the page). */
export function ColumnChooser({ keys, onChange }: { keys: string[]; onChange: (keys: string[]) => void }) {
  const optional = CUSTOMER_COLUMNS.filter((column) => !column.fixed);
  return (
    <Popover position="bottom-end" shadow="md" width={260} withinPortal>
      <Popover.Target>
        <Button variant="default">Columns</Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Checkbox.Group
          label="Show columns"
          value={keys}
          onChange={onChange}
          styles={{ label: { marginBottom: 8 } }}
        >
          <ScrollArea.Autosize mah={360} type="auto">
            <Stack gap={8} pr="sm">
              {optional.map((column) => (
                <Checkbox key={column.key} value={column.key} label={column.label} size="xs" />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Checkbox.Group>
        <Button variant="subtle" size="compact-xs" mt="sm" onClick={() => onChange(DEFAULT_COLUMN_KEYS)}>
          Reset to default
        </Button>
      </Popover.Dropdown>
    </Popover>
  );
}
