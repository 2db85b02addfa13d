import { ledgerCheckResultSchema, type JobRun } from "@cyclebill/domain";
import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { JobProgress } from "../../shared/JobProgress";
import { isFinished, startLedgerCheck, useJobRun, useLatestJobRun } from "../../shared/job-runs-api";
import { countOf, plural } from "../../lib/plural";

/**
 * Prove the books: a ledger-check job over every customer of the client (each balance equals
 * its ledger), with its progress while it runs and what it found. Admins and the client's owner.
 */
export function BooksCheck({ clientId }: { clientId: number }) {
  const queryClient = useQueryClient();
  const latest = useLatestJobRun(clientId, "ledger-check");
  const [startedId, setStartedId] = useState<number | null>(null);
  const runId = startedId ?? latest.data?.id ?? null;
  const run = useJobRun(clientId, runId);
  const start = useMutation({
    mutationFn: () => startLedgerCheck(clientId),
    onSuccess: (queued) => {
      setStartedId(queued.id);
      void queryClient.invalidateQueries({ queryKey: ["job-runs", clientId, "latest"] });
    },
  });
  const current = run.data ?? null;
  const running = current !== null && !isFinished(current);
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={4}>Prove the books</Title>
            <Text size="sm" c="dimmed">
              Checks that every customer&apos;s balance equals the sum of its ledger entries.
            </Text>
          </div>
          <Button onClick={() => start.mutate()} loading={start.isPending} disabled={running}>
            Check the books
          </Button>
        </Group>
        {start.isError ? (
          <Alert color="red" variant="light">
            {start.error.message}
          </Alert>
        ) : null}
        {current ? <CheckOutcome run={current} /> : null}
      </Stack>
    </Paper>
  );
}

function CheckOutcome({ run }: { run: JobRun }) {
  if (!isFinished(run) || run.status === "failed")
    return <JobProgress run={run} unit={{ one: "customer" }} />;
  const result = ledgerCheckResultSchema.safeParse(run.result);
  if (!result.success) return <JobProgress run={run} unit={{ one: "customer" }} />;
  const when = run.finished_at ? new Date(run.finished_at).toLocaleString() : "";
  const wrongStatements = result.data.statement_mismatches;
  const statementsAlert =
    wrongStatements.length > 0 ? (
      <Alert
        color="red"
        variant="light"
        title={`${countOf(wrongStatements.length, "statement")} ${plural(wrongStatements.length, "does not prove itself", "do not prove themselves")}`}
      >
        <Stack gap={2}>
          {wrongStatements.map((mismatch) => (
            <Text key={mismatch.statement_id} size="sm">
              Statement {mismatch.statement_num} of {mismatch.statement_date} (customer id{" "}
              {mismatch.customer_id}
              ): {mismatch.reasons.join("; ")}
            </Text>
          ))}
        </Stack>
      </Alert>
    ) : null;
  if (result.data.mismatches.length === 0) {
    return (
      <Stack gap="sm">
        <Alert color="teal" variant="light" title="The books balance">
          {countOf(result.data.customers_checked, "customer")} checked {when && `on ${when}`}: every balance
          equals its ledger
          {wrongStatements.length === 0 ? ", and every statement adds up to it." : "."}
        </Alert>
        {statementsAlert}
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <Alert
        color="red"
        variant="light"
        title={`${countOf(result.data.mismatches.length, "customer")} ${plural(result.data.mismatches.length, "disagrees with its ledger", "disagree with their ledger")}`}
      >
        <Table withRowBorders={false}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Customer id</Table.Th>
              <Table.Th>Balance</Table.Th>
              <Table.Th>Ledger</Table.Th>
              <Table.Th>Entries</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.data.mismatches.map((mismatch) => (
              <Table.Tr key={mismatch.customer_id}>
                <Table.Td>{mismatch.customer_id}</Table.Td>
                <Table.Td>{mismatch.total_balance}</Table.Td>
                <Table.Td>{mismatch.ledger_sum}</Table.Td>
                <Table.Td>
                  {mismatch.ledger_entries} kept, {mismatch.entry_count} in the ledger
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Alert>
      {statementsAlert}
    </Stack>
  );
}
