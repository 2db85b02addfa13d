import type { Session } from "@cyclebill/domain";
import { Alert, Modal, Skeleton, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { describeApiError } from "../../api/api-client";
import { SessionsTable } from "./SessionsTable";
import { useEndSession, useSessions } from "./security-api";

/** An owner's or admin's view of one user's sessions, with End on each open one. */
export function UserSessionsModal({
  user,
  onClose,
}: {
  user: { id: number; email: string };
  onClose: () => void;
}) {
  const sessions = useSessions(user.id);
  const end = useEndSession(user.id);
  const endOne = (session: Session) =>
    end.mutate(session.id, {
      onSuccess: () =>
        notifications.show({
          color: "teal",
          message: `${user.email}'s session on ${session.device} was ended.`,
        }),
    });
  return (
    <Modal opened onClose={onClose} title={`Sessions of ${user.email}`} size="60rem">
      {sessions.isPending ? (
        <Skeleton h={120} />
      ) : sessions.isError ? (
        <Alert color="red" title="The sessions could not be loaded">
          {describeApiError(sessions.error)}
        </Alert>
      ) : sessions.data.results.length === 0 ? (
        <Text size="sm" c="dimmed">
          No sessions: this user has not signed in lately.
        </Text>
      ) : (
        <SessionsTable
          sessions={sessions.data.results}
          onEnd={endOne}
          ending={end.isPending ? (end.variables ?? null) : null}
          label={`Sessions of ${user.email}`}
        />
      )}
    </Modal>
  );
}
