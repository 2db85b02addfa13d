import type { Session } from "@cyclebill/domain";
import { Badge, Button, Group, Table, Text } from "@mantine/core";

const REASONS: Record<string, string> = {
  logout: "Signed out",
  ended: "Ended",
  signed_out_elsewhere: "Signed out elsewhere",
  password_changed: "Password changed",
  password_reset: "Password reset",
  factor_changed: "Sign-in factor changed",
};

export function formatSessionTime(value: string | null): string {
  if (!value) return "";
  return new Date(value).toLocaleString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });
}

/** A list of sessions: device, address, started, last seen, state, and End for the open ones. */
export function SessionsTable({
  sessions,
  onEnd,
  ending,
  label,
}: {
  sessions: readonly Session[];
  onEnd: (session: Session) => void;
  /** The session being ended, if any. */
  ending: number | null;
  label: string;
}) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped verticalSpacing="xs" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Device</Table.Th>
            <Table.Th>Address</Table.Th>
            <Table.Th>Started</Table.Th>
            <Table.Th>Last seen</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th ta="right">Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sessions.map((session) => (
            <Table.Tr key={session.id} data-testid={`session-${String(session.id)}`}>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm" title={session.user_agent ?? undefined}>
                    {session.device}
                  </Text>
                  {session.current ? (
                    <Badge size="sm" color="teal" variant="light">
                      This device
                    </Badge>
                  ) : null}
                </Group>
              </Table.Td>
              <Table.Td>{session.address || "—"}</Table.Td>
              <Table.Td>{formatSessionTime(session.started_at)}</Table.Td>
              <Table.Td>{formatSessionTime(session.last_seen_at)}</Table.Td>
              <Table.Td>
                {session.active ? (
                  <Badge color="teal" variant="dot">
                    Active
                  </Badge>
                ) : (
                  <Text size="sm" c="dimmed">
                    {session.ended_at
                      ? `${REASONS[session.end_reason ?? ""] ?? "Ended"} ${formatSessionTime(session.ended_at)}`
                      : "Expired"}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right">
                {session.active && !session.current ? (
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    loading={ending === session.id}
                    aria-label={`End session on ${session.device} from ${session.address}`}
                    onClick={() => onEnd(session)}
                  >
                    End
                  </Button>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
