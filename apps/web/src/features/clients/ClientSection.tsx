import { Paper, SimpleGrid, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** A titled group of fields in the client editor, laid out in columns on wide screens. */
export function ClientSection({
  title,
  description,
  cols = 3,
  children,
}: {
  title: string;
  description?: ReactNode;
  cols?: number;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" radius="sm" component="section" aria-label={title}>
      <Title order={3} size="h5" mb={description ? 2 : "sm"}>
        {title}
      </Title>
      {description ? (
        <Text size="xs" c="dimmed" mb="sm">
          {description}
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: Math.min(2, cols), lg: cols }} spacing="md" verticalSpacing="sm">
        {children}
      </SimpleGrid>
    </Paper>
  );
}
