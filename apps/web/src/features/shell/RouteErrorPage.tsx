import { Anchor, Container, Stack, Text, Title } from "@mantine/core";
import { Link, isRouteErrorResponse, useRouteError } from "react-router";

/** Shown instead of React Router's developer error screen when a route throws while rendering. */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;

  return (
    <Container size="sm" py="xl">
      <Stack gap="xs">
        <title>Something went wrong · Cyclebill</title>
        <Title order={1} size="h2">
          Something went wrong
        </Title>
        {detail ? <Text c="dimmed">{detail}</Text> : null}
        <Anchor component={Link} to="/home">
          Go to Home
        </Anchor>
      </Stack>
    </Container>
  );
}
