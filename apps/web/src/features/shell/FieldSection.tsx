import { Paper, SimpleGrid, Text, Title, type PaperProps } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * A titled group of an editor's fields, laid out in `cols` columns from the `wideAt` breakpoint (two
 * on small screens, one on phones). Unbordered, it sits flush inside another panel.
 */
export function FieldSection({
  title,
  description,
  cols = 3,
  wideAt,
  bordered = true,
  bg,
  children,
}: {
  title: string;
  description?: ReactNode;
  cols?: number;
  wideAt: "md" | "lg";
  bordered?: boolean;
  bg?: PaperProps["bg"];
  children: ReactNode;
}) {
  return (
    <Paper
      withBorder={bordered}
      p={bordered ? "md" : 0}
      radius="sm"
      component="section"
      aria-label={title}
      bg={bg}
    >
      <Title order={3} size="h5" mb={description ? 2 : "sm"}>
        {title}
      </Title>
      {description ? (
        <Text size="xs" c="dimmed" mb="sm">
          {description}
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: Math.min(2, cols), [wideAt]: cols }} spacing="md" verticalSpacing="sm">
        {children}
      </SimpleGrid>
    </Paper>
  );
}
