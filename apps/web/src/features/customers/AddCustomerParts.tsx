import { Badge, CloseButton, Group, Paper, Text } from "@mantine/core";
import type { ReactNode } from "react";

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
