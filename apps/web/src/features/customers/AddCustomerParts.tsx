import { Accordion, Badge, Button, CloseButton, Group, Paper, Stack, Text } from "@mantine/core";
import type { Dispatch, ReactNode, SetStateAction } from "react";
import type { AddCustomerSection, DraftRow } from "./use-add-customer";

/** A folded section's title: its name, how many drafts it holds, or that it is optional. */
export function SectionTitle({ title, hint, count }: { title: string; hint?: string; count?: number }) {
  return (
    <Group gap="xs">
      <Text fw={600} size="sm">
        {title}
      </Text>
      {count !== undefined && count > 0 ? (
        <Badge size="sm" variant="light" circle>
          {count}
        </Badge>
      ) : null}
      {hint || count === 0 ? (
        <Text size="xs" c="dimmed">
          {hint ?? "Optional"}
        </Text>
      ) : null}
    </Group>
  );
}

/** One draft recurring charge or stored amount, with its remove button. */
export function DraftCard({
  title,
  onRemove,
  children,
}: {
  title: string;
  onRemove: () => void;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="sm" radius="sm" bg="gray.0" role="group" aria-label={title}>
      <Group justify="space-between" mb={4}>
        <Text size="xs" fw={600} c="dimmed" tt="uppercase" aria-hidden>
          {title}
        </Text>
        <CloseButton size="sm" aria-label={`Remove ${title.toLowerCase()}`} onClick={onRemove} />
      </Group>
      {children}
    </Paper>
  );
}

/** One folded section of the Add Customer form, titled as SectionTitle does. */
export function FoldedSection(props: {
  value: AddCustomerSection;
  title: string;
  hint?: string;
  count?: number;
  children: ReactNode;
}) {
  return (
    <Accordion.Item value={props.value}>
      <Accordion.Control>
        <SectionTitle title={props.title} hint={props.hint} count={props.count} />
      </Accordion.Control>
      <Accordion.Panel>{props.children}</Accordion.Panel>
    </Accordion.Item>
  );
}

/**
 * A folded section of draft recurring charges or stored amounts: a card per draft ("Recurring charge 1"),
 * and the button that adds one ("Add recurring charge"), with a hint while there are none.
 */
export function DraftSection<Draft, Field extends string>(props: {
  value: AddCustomerSection;
  title: string;
  /** One draft's name, capitalized: "Recurring charge". */
  noun: string;
  hint: ReactNode;
  rows: readonly DraftRow<Draft, Field>[];
  setRows: Dispatch<SetStateAction<DraftRow<Draft, Field>[]>>;
  onAdd: () => void;
  inputs: (row: DraftRow<Draft, Field>, onChange: (draft: Draft) => void) => ReactNode;
}) {
  const { rows, setRows } = props;
  return (
    <FoldedSection value={props.value} title={props.title} count={rows.length}>
      <Stack gap="sm">
        {rows.map((row, index) => (
          <DraftCard
            key={row.key}
            title={`${props.noun} ${String(index + 1)}`}
            onRemove={() => setRows((current) => current.filter((other) => other.key !== row.key))}
          >
            {props.inputs(row, (draft) =>
              setRows((current) =>
                current.map((other) => (other.key === row.key ? { ...other, draft, errors: {} } : other)),
              ),
            )}
          </DraftCard>
        ))}
        <Group>
          <Button variant="light" size="xs" onClick={props.onAdd}>
            {`Add ${props.noun.toLowerCase()}`}
          </Button>
          {rows.length === 0 ? (
            <Text size="xs" c="dimmed">
              {props.hint}
            </Text>
          ) : null}
        </Group>
      </Stack>
    </FoldedSection>
  );
}
