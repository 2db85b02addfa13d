import { usDate, type ClosedPeriod, type ClosedPeriodEvent } from "@cyclebill/domain";
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch, describeApiError } from "../../api/api-client";

const ACTION_LABELS: Record<ClosedPeriodEvent["action"], string> = {
  run: "Closed by a run",
  reopen: "Reopened",
  close: "Closed again",
};

const shown = (date: string | null) => (date === null ? "nothing closed" : usDate(date));

/**
 * The client's closed period (provider admins): the date its books are closed through, reopening
 * with a reason, closing again, and every change (who, when, why).
 */
export function ClosedPeriodPanel({ clientId }: { clientId: number }) {
  const queryClient = useQueryClient();
  const key = ["clients", clientId, "closed-period"];
  const period = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      apiFetch<ClosedPeriod>(`/clients/${String(clientId)}/closed-period/`, { signal }),
  });
  const [reason, setReason] = useState("");
  const [confirming, setConfirming] = useState(false);
  const change = useMutation({
    mutationFn: (action: "reopen" | "close") =>
      apiFetch<ClosedPeriod>(`/clients/${String(clientId)}/closed-period/${action}/`, {
        method: "POST",
        body: action === "reopen" ? { reason } : reason.trim() === "" ? {} : { reason },
      }),
    onSuccess: (next) => {
      queryClient.setQueryData(key, next);
      setReason("");
      setConfirming(false);
    },
  });
  const data = period.data;
  const lastReopen = data?.history.find((event) => event.action !== "run");
  const reopened = lastReopen?.action === "reopen";
  return (
    <Paper withBorder p="md" radius="md" data-testid="closed-period">
      <Stack gap="sm">
        <div>
          <Title order={4}>Closed period</Title>
          <Text size="sm" c="dimmed">
            A run&apos;s statements close the books through its date: nothing dated on or before it can be
            posted, changed or removed until a provider admin reopens the period.
          </Text>
        </div>
        {data ? (
          <Group gap="xs">
            <Text>Books closed through</Text>
            <Badge size="lg" variant="light" color={data.books_closed_through ? "blue" : "gray"}>
              {shown(data.books_closed_through)}
            </Badge>
            {reopened ? <Badge color="orange">Reopened</Badge> : null}
          </Group>
        ) : null}
        <Group align="flex-end">
          <TextInput
            label="Reason"
            placeholder="Why the period is reopened (required) or closed again"
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            style={{ flex: 1 }}
            maxLength={500}
          />
          <Button
            variant="default"
            onClick={() => setConfirming(true)}
            disabled={!data?.books_closed_through || reason.trim() === ""}
          >
            Reopen
          </Button>
          <Button
            onClick={() => change.mutate("close")}
            loading={change.isPending && change.variables === "close"}
            disabled={!reopened}
          >
            Close again
          </Button>
        </Group>
        {change.isError ? (
          <Alert color="red" variant="light">
            {describeApiError(change.error)}
          </Alert>
        ) : null}
        <Modal opened={confirming} onClose={() => setConfirming(false)} title="Reopen the period?">
          {data?.reopen ? (
            <Stack gap="sm">
              <Text>
                The books will be closed only through {shown(data.reopen.closed_through)} instead of{" "}
                {shown(data.books_closed_through)}.
              </Text>
              {/* Why a reopen is not free: what went out stops adding up against a changed period. */}
              <Alert color="orange" variant="light" data-testid="reopen-statements">
                {data.reopen.statements === 0
                  ? "No sent statement is dated in the reopened period."
                  : `${data.reopen.statements.toLocaleString("en-US")} sent statement${data.reopen.statements === 1 ? " is" : "s are"} dated in the reopened period. Once anything in it changes, ${data.reopen.statements === 1 ? "it" : "they"} will no longer prove ${data.reopen.statements === 1 ? "itself" : "themselves"} (the ledger will no longer add up to what was sent) until reissued.`}
              </Alert>
              {change.isError ? (
                <Alert color="red" variant="light">
                  {describeApiError(change.error)}
                </Alert>
              ) : null}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setConfirming(false)}>
                  Cancel
                </Button>
                <Button
                  color="orange"
                  onClick={() => change.mutate("reopen")}
                  loading={change.isPending && change.variables === "reopen"}
                >
                  Reopen the period
                </Button>
              </Group>
            </Stack>
          ) : null}
        </Modal>
        {data && data.history.length > 0 ? (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Closed through</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>Why</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.history.map((event) => (
                <Table.Tr key={event.id}>
                  <Table.Td>{new Date(event.created_at).toLocaleString()}</Table.Td>
                  <Table.Td>{ACTION_LABELS[event.action]}</Table.Td>
                  <Table.Td>
                    {shown(event.closed_through_before)} → {shown(event.closed_through_after)}
                  </Table.Td>
                  <Table.Td>{event.user ?? "—"}</Table.Td>
                  <Table.Td>{event.reason}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </Stack>
    </Paper>
  );
}
