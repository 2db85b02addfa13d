import type { Session } from "@cyclebill/domain";
import { Alert, Button, Card, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { describeApiError } from "../../api/api-client";
import { SessionsTable } from "./SessionsTable";
import { useEndOtherSessions, useEndSession, useSessions } from "./security-api";
import { countOf } from "../../lib/plural";

/** "Your sessions": where you are signed in; end one, or every one but this. */
export function SessionsSection() {
  const sessions = useSessions();
  const end = useEndSession();
  const endOthers = useEndOtherSessions();
  const others = sessions.data?.results.filter((session) => session.active && !session.current) ?? [];

  const endOne = (session: Session) =>
    end.mutate(session.id, {
      onSuccess: () =>
        notifications.show({ color: "teal", message: `The session on ${session.device} was ended.` }),
    });
  const endEverywhereElse = () =>
    endOthers.mutate(undefined, {
      onSuccess: ({ ended }) =>
        notifications.show({
          color: "teal",
          message: `Signed out of ${countOf(ended, "other session")}.`,
        }),
    });

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="sessions-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={2} size="h4" id="sessions-title">
              Your sessions
            </Title>
            <Text size="sm" c="dimmed">
              Each sign-in is a session. End one you do not recognise: that browser is signed out at its next
              step.
            </Text>
          </div>
          <Button
            variant="light"
            color="red"
            disabled={others.length === 0}
            loading={endOthers.isPending}
            onClick={endEverywhereElse}
          >
            Sign out everywhere else
          </Button>
        </Group>
        {sessions.isPending ? (
          <Skeleton h={120} />
        ) : sessions.isError ? (
          <Alert color="red" title="Your sessions could not be loaded">
            {describeApiError(sessions.error)}
          </Alert>
        ) : (
          <SessionsTable
            sessions={sessions.data.results}
            onEnd={endOne}
            ending={end.isPending ? (end.variables ?? null) : null}
            label="Your sessions"
          />
        )}
      </Stack>
    </Card>
  );
}
