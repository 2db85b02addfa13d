import type { ProductionRun } from "@cyclebill/domain";
import { Alert, Badge, Card, Group, Progress, Stack, Table, Text } from "@mantine/core";
import { formatAmount } from "../../lib/format";
import { AutopayRunButton } from "../payments/AutopayRunButton";
import { FigureCells, FigureHeaders } from "./FiguresCells";
import { UndoRunButton } from "./UndoRunButton";
import { countOf } from "../../lib/plural";

type ShownStatus = ProductionRun["status"] | "undone";

const STATUS_COLORS: Record<ShownStatus, string> = {
  queued: "gray",
  running: "blue",
  done: "green",
  failed: "red",
  undone: "orange",
};

/** A run's (or a part's) status; an undone one says so rather than "done". */
export function RunStatusBadge({
  status,
  undone = false,
}: {
  status: ProductionRun["status"];
  undone?: boolean;
}) {
  const shown: ShownStatus = undone ? "undone" : status;
  return (
    // Never narrower than its word: in a crowded table the badge was cut to "D…".
    <Badge color={STATUS_COLORS[shown]} variant="light" miw="max-content">
      {shown}
    </Badge>
  );
}

/** Every client part of the run was undone: its statements and pools are gone. */
export function runUndone(run: ProductionRun): boolean {
  return run.clients.length > 0 && run.clients.every((client) => Boolean(client.undo?.undone_at));
}

/** A run's progress (customers done of total) while it runs, then its figures per client. */
export function RunProgress({ run }: { run: ProductionRun }) {
  const percent =
    run.total === 0 ? (run.status === "done" ? 100 : 0) : Math.round((run.done / run.total) * 100);
  return (
    <Card withBorder padding="md" aria-label={`Run ${run.id}`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>
            Run {run.id}: cycle {run.cycle}, {run.run_date}
          </Text>
          <RunStatusBadge status={run.status} undone={runUndone(run)} />
        </Group>
        <Progress
          value={percent}
          animated={run.status === "running" || run.status === "queued"}
          aria-label="Run progress"
          color={run.status === "failed" ? "red" : undefined}
        />
        <Text size="sm" data-testid="run-progress">
          {run.done} of {countOf(run.total, "customer")} done
        </Text>
        {run.status === "failed" ? (
          <Alert color="red" title="The run failed">
            {run.clients.map((client) => client.error).find(Boolean) ?? "A client's part of the run failed."}
          </Alert>
        ) : null}
        {run.clients.length > 0 ? (
          <Table.ScrollContainer minWidth={1000}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Client</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <FigureHeaders />
                  <Table.Th>Emails</Table.Th>
                  <Table.Th>Autopay</Table.Th>
                  <Table.Th>Undo</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {run.clients.map((client) => (
                  <Table.Tr key={client.client_id}>
                    <Table.Td>{client.client_name}</Table.Td>
                    <Table.Td>
                      <RunStatusBadge status={client.status} undone={Boolean(client.undo?.undone_at)} />
                    </Table.Td>
                    {client.figures ? (
                      <FigureCells figures={client.figures} />
                    ) : (
                      <Table.Td colSpan={9}>
                        {client.done} of {countOf(client.total, "customer")}
                      </Table.Td>
                    )}
                    <Table.Td>
                      <EmailProgress emails={client.emails} />
                    </Table.Td>
                    <Table.Td>
                      <AutopayRunButton
                        clientId={client.client_id}
                        clientName={client.client_name}
                        runId={client.autopay_job_id}
                      />
                    </Table.Td>
                    <Table.Td>
                      <UndoRunButton runId={run.id} part={client} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Text size="sm" c="dimmed">
            No client was billed by this run.
          </Text>
        )}
        {run.skipped.length > 0 ? (
          <Text size="sm" c="dimmed">
            Skipped: {run.skipped.map((item) => `${item.client_name} (${item.label})`).join(", ")}
          </Text>
        ) : null}
        {run.status === "done" ? (
          <Text size="sm">
            Statements{" "}
            {run.figures.statements.mail +
              run.figures.statements.email +
              run.figures.statements.both +
              run.figures.statements.pulled}
            , recurring charges {formatAmount(run.figures.recurring.total)}, late fees{" "}
            {formatAmount(run.figures.late_fees.total)}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/** A run part's statement emails: sent of total, what is still going out, and failures. */
function EmailProgress({ emails }: { emails: ProductionRun["clients"][number]["emails"] }) {
  if (emails.total === 0)
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  const pending = emails.queued + emails.sending;
  return (
    <Text size="sm" data-testid="email-progress">
      {emails.sent} of {emails.total} sent
      {pending > 0 ? `, ${pending} sending` : ""}
      {emails.failed > 0 ? (
        <Text span c="red" size="sm">
          , {emails.failed} failed
        </Text>
      ) : null}
    </Text>
  );
}
