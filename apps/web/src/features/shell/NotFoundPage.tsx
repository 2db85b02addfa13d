import { Anchor, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { useClientContext } from "../../shared/client-context";

export function NotFoundPage() {
  const { withClient } = useClientContext();
  return (
    <Stack gap="xs">
      <title>Page not found · Cyclebill</title>
      <Title order={1} size="h2">
        Page not found
      </Title>
      <Text c="dimmed">The address you followed does not match any page.</Text>
      <Anchor component={Link} to={withClient("/home")}>
        Go to Home
      </Anchor>
    </Stack>
  );
}
