import { Alert, Anchor, Card, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useUser } from "../auth/user-context";
import { useClientContext } from "../../shared/client-context";

/**
 * Shown instead of a client's screen when there is no client to work on: admins who have not picked
 * one yet get a prompt; users not attached to a client get a notice.
 */
export function NoClientNotice({ what }: { what: string }) {
  const user = useUser();
  const { isAdmin } = useClientContext();
  if (isAdmin) {
    return (
      <Card withBorder padding="lg" maw={640}>
        <Text fw={600} mb={4}>
          Choose a client first
        </Text>
        <Text size="sm" c="dimmed">
          Search for a client in the Client Select box above to see its {what}.
        </Text>
        <Anchor component={Link} to="/clients" size="sm" mt="sm">
          Browse the client list
        </Anchor>
      </Card>
    );
  }
  return (
    <Alert color="yellow" title="Your account is not attached to a client yet" maw={640}>
      An administrator must attach {user.email} to a client before you can work with its {what}.
    </Alert>
  );
}

/**
 * A client's screen while there is no client: its header above the notice. `adminNotice`, where given,
 * is what admins see instead of the prompt to choose one.
 */
export function NoClientPage({
  header,
  what,
  adminNotice,
}: {
  header: ReactNode;
  what: string;
  adminNotice?: string;
}) {
  const { isAdmin } = useClientContext();
  return (
    <Stack gap="md">
      {header}
      {isAdmin && adminNotice !== undefined ? (
        <Alert color="blue">{adminNotice}</Alert>
      ) : (
        <NoClientNotice what={what} />
      )}
    </Stack>
  );
}

/** Admin-only screens (Clients): other users get a notice instead of the screen. */
export function AdminOnly({ children }: { children: ReactNode }) {
  const user = useUser();
  if (user.isAdmin) return children;
  return (
    <Alert color="yellow" title="Administrators only" maw={640}>
      This screen is for the billing provider&apos;s administrators. Your own client&apos;s details are under
      Settings.
    </Alert>
  );
}
