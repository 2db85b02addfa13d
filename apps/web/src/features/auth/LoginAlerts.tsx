import { Alert, List, Text } from "@mantine/core";
import type { Page } from "@cyclebill/domain";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
import { countOf, plural } from "../../lib/plural";

/** An account whose sign-in is under attack, as the login-alerts endpoints list them. */
export type LoginAlert = {
  user_id: number;
  email: string;
  name: string;
  role: "admin" | "owner" | "staff";
  client: number | null;
  client_name: string | null;
  failed_logins: number;
  addresses: number;
  since: string;
};

// Refreshed every minute: an attack is news while it lasts.
const REFRESH_MS = 60_000;

/** A client's attacked users (clientId), or every attacked account for the provider's admins (null). */
export function useLoginAlerts(clientId: number | null) {
  return useQuery({
    queryKey: ["login-alerts", clientId],
    queryFn: ({ signal }) =>
      clientId === null
        ? apiFetch<Page<LoginAlert>>("/login-alerts/", { signal })
        : apiFetch<Page<LoginAlert>>("/users/login-alerts/", { query: { client_id: clientId }, signal }),
    refetchInterval: REFRESH_MS,
  });
}

function whose(alert: LoginAlert, showClient: boolean): string {
  const who = alert.name ? `${alert.name} (${alert.email})` : alert.email;
  if (!showClient) return who;
  return `${who}, ${alert.role === "admin" ? "provider admin" : (alert.client_name ?? "no client")}`;
}

/**
 * One line per account under attack; nothing when there is none. Guessing addresses are slowed,
 * the account is never locked: the line says so, so nobody resets a password in a hurry.
 */
export function LoginAlerts({ clientId }: { clientId: number | null }) {
  const alerts = useLoginAlerts(clientId);
  if (!alerts.data || alerts.data.count === 0) return null;
  const showClient = clientId === null;
  return (
    <Alert color="orange" title="Sign-in under attack" role="alert" aria-label="Sign-in under attack">
      <List size="sm" spacing={2}>
        {alerts.data.results.map((alert) => (
          <List.Item key={alert.user_id}>
            {whose(alert, showClient)}: {countOf(alert.failed_logins, "failed sign-in")} from{" "}
            {alert.addresses} {plural(alert.addresses, "address", "addresses")} since{" "}
            {formatTime(alert.since)}.
          </List.Item>
        ))}
      </List>
      <Text size="xs" c="dimmed" mt={4}>
        Addresses that keep guessing are slowed; the account itself stays open, so its owner can still sign
        in. A strong password is what keeps it safe.
      </Text>
    </Alert>
  );
}

// A moment, not a business date: the browser's time zone is the reader's.
function formatTime(iso: string): string {
  return new Date(iso).toLocaleString([], {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}
