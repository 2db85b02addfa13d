import { Anchor, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { apiFetch, readToken } from "../../api/api-client";
import { clearSession } from "../../api/session";

export const LOGGED_OUT_MESSAGE = "Thank you. You have been logged out successfully.";

export function LogoutPage() {
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);

  useEffect(() => {
    let active = true;
    // Tell the server first (it needs the token), but log out locally whatever it answers.
    // Without a token there is no server session to end, and the call could only fail.
    const serverLogout =
      readToken() === null
        ? Promise.resolve()
        : apiFetch<unknown>("/auth/logout/", { method: "POST", handles: "all" });
    serverLogout
      .catch((error: unknown) => console.warn("Server-side logout failed; logged out locally:", error))
      .finally(() => {
        clearSession();
        queryClient.removeQueries();
        if (active) setDone(true);
      });
    return () => {
      active = false;
    };
  }, [queryClient]);

  return (
    <Stack gap="md">
      <title>Sign Out · Cyclebill</title>
      <Title order={1} size="h2">
        Sign Out
      </Title>
      {done ? (
        <>
          <Text>{LOGGED_OUT_MESSAGE}</Text>
          <Anchor component={Link} to="/">
            Log in again
          </Anchor>
        </>
      ) : (
        <Group gap="sm">
          <Loader size="sm" />
          <Text c="dimmed">Signing you out…</Text>
        </Group>
      )}
    </Stack>
  );
}
