import { Alert, Button, Stack, Text } from "@mantine/core";
import { describeApiError } from "../../api/api-client";

/** The part of a failed TanStack query the alert reads and retries. */
type FailedQuery = { error: unknown; isFetching: boolean; refetch: () => Promise<unknown> };

/** A query's failure in a red alert with a Try again button that refetches it. */
export function RetryAlert({ title, query }: { title: string; query: FailedQuery }) {
  return (
    <Alert color="red" title={title} maw={640}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{describeApiError(query.error)}</Text>
        <Button size="xs" variant="light" onClick={() => void query.refetch()} loading={query.isFetching}>
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}
