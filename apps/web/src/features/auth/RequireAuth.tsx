import { Alert, Anchor, Button, Center, Group, Loader, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { Link, Navigate, useLocation } from "react-router";
import { describeApiError } from "../../api/api-client";
import { useSessionToken } from "../../api/session";
import { useCurrentUser } from "./current-user";
import { loginPathFor } from "./redirect";
import { UserContext } from "./user-context";
import { ENROLMENT_PATHS } from "../shell/nav-items";

/** Navigation guard: pages inside need a logged-in user; others go to login and come back afterwards. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useSessionToken();
  const location = useLocation();
  const me = useCurrentUser();

  if (token === null) {
    return <Navigate to={loginPathFor(`${location.pathname}${location.search}`)} replace />;
  }
  if (me.isPending) {
    return (
      <Center h="100vh">
        <Group gap="sm">
          <Loader size="sm" />
          <Text c="dimmed">Loading your account…</Text>
        </Group>
      </Center>
    );
  }
  if (me.isError) {
    // A 401 has already cleared the session (and this guard redirects on the next render); this is
    // for an unreachable or failing server, where retrying may help.
    return (
      <Center h="100vh" px="md">
        <Stack maw={420}>
          <Alert color="red" title="Could not load your account">
            {describeApiError(me.error)}
          </Alert>
          <Group>
            <Button onClick={() => void me.refetch()} loading={me.isFetching}>
              Try again
            </Button>
            <Anchor component={Link} to="/logout">
              Sign out
            </Anchor>
          </Group>
        </Stack>
      </Center>
    );
  }
  // Held at second-factor enrolment: the Security page is all there is until a factor is set up.
  if (me.data.second_factor_enrolment_required && !ENROLMENT_PATHS.includes(location.pathname)) {
    return <Navigate to="/security" replace />;
  }
  return <UserContext value={me.data.userInfo}>{children}</UserContext>;
}
