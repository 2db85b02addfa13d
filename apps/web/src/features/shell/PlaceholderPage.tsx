import { Stack, Text, Title } from "@mantine/core";

/** Stand-in for a screen that a later feature issue builds. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <Stack gap="xs">
      <title>{`${title} · Cyclebill`}</title>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text c="dimmed">This screen arrives with its feature.</Text>
    </Stack>
  );
}
