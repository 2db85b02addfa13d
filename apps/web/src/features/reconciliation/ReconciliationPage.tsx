import { RECONCILIATION_DIFFERENCE_LABELS, type JobRun, type Reconciliation } from "@cyclebill/domain";
import { Alert, Anchor, Button, Card, Group, Stack, Table, Text, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useDownload } from "../../api/download";
import { today } from "../../lib/business-date";
import { useClientContext } from "../../shared/client-context";
import { JobProgress } from "../../shared/JobProgress";
import { isFinished, useJobRun } from "../../shared/job-runs-api";
import { GatewayReturns } from "../gateway-events/GatewayReturns";
import { PageHeader } from "../shell/PageHeader";
import {
  reconciliationKeys,
  startReconcile,
  useReconciledDay,
  useReconciledDays,
} from "./reconciliation-api";
import { countOf } from "../../lib/plural";

function yesterday(): string {
  const date = new Date(`${today()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

/** Gateway reconciliation (/reconciliation): a day's totals and differences, and (admins) a run of it. */
export function ReconciliationPage() {
  const { clientId, clientName, isAdmin } = useClientContext();
  const [day, setDay] = useState(yesterday);
  const [runId, setRunId] = useState<number | null>(null);
  const queryClient = useQueryClient();
  const days = useReconciledDays(clientId);
  const reconciled = useReconciledDay(clientId, day);
  const run = useJobRun(clientId ?? 0, runId);
  const download = useDownload();
  const start = useMutation({
    mutationFn: () => startReconcile(clientId ?? 0, day),
    onSuccess: (started: JobRun) => setRunId(started.id),
  });
  const finished = run.data !== undefined && isFinished(run.data);
  useEffect(() => {
    if (finished && clientId !== null)
      void queryClient.invalidateQueries({ queryKey: reconciliationKeys(clientId) });
  }, [finished, clientId, queryClient]);

  if (clientId === null)
    return (
      <Stack gap="lg" maw={1100}>
        <PageHeader title="Gateway reconciliation" />
        <Alert color="yellow">Choose a client in the Client Select box above.</Alert>
      </Stack>
    );
  const running = start.isPending || (run.data !== undefined && !isFinished(run.data));
  return (
    <Stack gap="lg" maw={1100}>
      <PageHeader
        title="Gateway reconciliation"
        description={`${clientName ?? "The client"}: what BluePay settled each day against the payments in the books.`}
      />
      <Card withBorder padding="lg">
        <Group gap="md" align="flex-end" wrap="wrap">
          <TextInput
            label="Day"
            type="date"
            value={day}
            max={today()}
            onChange={(event) => setDay(event.currentTarget.value)}
            w={180}
          />
          {isAdmin ? (
            <Button
              onClick={() => start.mutate()}
              loading={running}
              disabled={!/^\d{4}-\d{2}-\d{2}$/.test(day)}
            >
              Run for this day
            </Button>
          ) : null}
          {reconciled.data ? (
            <Button
              variant="default"
              loading={download.isPending}
              onClick={() =>
                download.mutate({
                  path: `/gateway/reconciliations/${reconciled.data?.id}/`,
                  query: { client_id: clientId, format: "csv" },
                  fallbackName: `reconciliation-${day}.csv`,
                })
              }
            >
              CSV
            </Button>
          ) : null}
        </Group>
        {run.data ? (
          <div style={{ marginTop: 16 }}>
            <JobProgress run={run.data} unit={{ one: "step" }} />
          </div>
        ) : null}
        {start.error ? (
          <Alert color="red" mt="md">
            {start.error.message}
          </Alert>
        ) : null}
      </Card>
      {reconciled.data === null ? (
        <Text c="dimmed">{day} has not been reconciled yet.</Text>
      ) : reconciled.data ? (
        <DayReport reconciliation={reconciled.data} />
      ) : null}
      {/^\d{4}-\d{2}-\d{2}$/.test(day) ? <GatewayReturns clientId={clientId} date={day} /> : null}
      {days.data && days.data.results.length > 0 ? (
        <Card withBorder padding="lg" component="section" aria-label="Reconciled days">
          <Text fw={600} mb="sm">
            Reconciled days
          </Text>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Day</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">At BluePay</Table.Th>
                <Table.Th ta="right">In the ledger</Table.Th>
                <Table.Th ta="right">Differences</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {days.data.results.map((summary) => (
                <Table.Tr key={summary.id}>
                  <Table.Td>
                    <Anchor component="button" type="button" size="sm" onClick={() => setDay(summary.day)}>
                      {summary.day}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{summary.status}</Table.Td>
                  <Table.Td ta="right">
                    {summary.gateway_count} · {summary.gateway_total}
                  </Table.Td>
                  <Table.Td ta="right">
                    {summary.ledger_count} · {summary.ledger_total}
                  </Table.Td>
                  <Table.Td ta="right">{summary.difference_count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      ) : null}
    </Stack>
  );
}

function DayReport({ reconciliation }: { reconciliation: Reconciliation }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={`Reconciliation of ${reconciliation.day}`}>
      <Group gap="xl" mb="md" wrap="wrap">
        <Figure
          label="Settled at BluePay"
          count={reconciliation.gateway_count}
          total={reconciliation.gateway_total}
        />
        <Figure
          label="In the ledger"
          count={reconciliation.ledger_count}
          total={reconciliation.ledger_total}
        />
        <div>
          <Text size="sm" c="dimmed">
            Differences
          </Text>
          <Text fw={700} size="lg" c={reconciliation.difference_count > 0 ? "red.9" : "teal.9"}>
            {reconciliation.difference_count}
          </Text>
        </div>
      </Group>
      {reconciliation.status === "failed" ? (
        <Alert color="red">Not reconciled: {reconciliation.error}</Alert>
      ) : reconciliation.status === "running" ? (
        <Text c="dimmed">Being reconciled…</Text>
      ) : reconciliation.differences.length === 0 ? (
        <Text c="teal.9">No differences: what BluePay settled is what the ledger holds.</Text>
      ) : (
        <Table.ScrollContainer minWidth={700}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Difference</Table.Th>
                <Table.Th>TRANS_ID</Table.Th>
                <Table.Th>Attempt</Table.Th>
                <Table.Th ta="right">BluePay</Table.Th>
                <Table.Th ta="right">Ledger</Table.Th>
                <Table.Th>Detail</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {reconciliation.differences.map((difference, at) => (
                <Table.Tr key={`${difference.kind}-${difference.trans_id}-${String(at)}`}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {RECONCILIATION_DIFFERENCE_LABELS[difference.kind]}
                    </Text>
                  </Table.Td>
                  <Table.Td>{difference.trans_id || "—"}</Table.Td>
                  <Table.Td>{difference.attempt_id ?? "—"}</Table.Td>
                  <Table.Td ta="right">{difference.gateway_amount ?? "—"}</Table.Td>
                  <Table.Td ta="right">{difference.ledger_amount ?? "—"}</Table.Td>
                  <Table.Td>{difference.detail}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

function Figure({ label, count, total }: { label: string; count: number; total: string }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {total}
      </Text>
      <Text size="xs" c="dimmed">
        {countOf(count, "payment")}
      </Text>
    </div>
  );
}
