import { Anchor, Button, Stack, Table, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { describeApiError } from "../../api/api-client";
import { formatAmount } from "../../lib/format";
import { LoadingRows } from "../shell/LoadingRows";
import { useProductionRuns, useRebuildPools } from "./production-api";
import { RunStatusBadge, runUndone } from "./RunProgress";

/** The last runs, newest first; choosing one shows its figures above. */
export function RunHistory({ onSelect }: { onSelect: (id: number) => void }) {
  const runs = useProductionRuns(20);
  const rebuild = useRebuildPools();
  const rows = runs.data?.results ?? [];
  // A failed, deleted or missing (ready without its zip) pool is drawn again from the run's statements.
  const rebuildPools = (runId: number) =>
    rebuild.mutate(runId, {
      onSuccess: (page) =>
        notifications.show({
          color: "teal",
          message: `Rebuilding ${page.results.map((pool) => pool.pool_name).join(", ")}.`,
        }),
      onError: (error) => notifications.show({ color: "red", message: describeApiError(error) }),
    });
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Run history
      </Title>
      <Table.ScrollContainer minWidth={700}>
        <Table striped aria-label="Run history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Run</Table.Th>
              <Table.Th>Cycle</Table.Th>
              <Table.Th>Run date</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th ta="right">Customers</Table.Th>
              <Table.Th ta="right">Statements</Table.Th>
              <Table.Th ta="right">Recurring</Table.Th>
              <Table.Th ta="right">Late fees</Table.Th>
              <Table.Th>Pools</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.isPending ? <LoadingRows columns={9} /> : null}
            {rows.map((run) => {
              const s = run.figures.statements;
              return (
                <Table.Tr key={run.id}>
                  <Table.Td>
                    <Anchor component="button" type="button" onClick={() => onSelect(run.id)}>
                      Run {run.id}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{run.cycle}</Table.Td>
                  <Table.Td>{run.run_date}</Table.Td>
                  <Table.Td>
                    <RunStatusBadge status={run.status} undone={runUndone(run)} />
                  </Table.Td>
                  <Table.Td ta="right">
                    {run.done} / {run.total}
                  </Table.Td>
                  <Table.Td ta="right">{s.mail + s.email + s.both + s.pulled}</Table.Td>
                  <Table.Td ta="right">{formatAmount(run.figures.recurring.total)}</Table.Td>
                  <Table.Td ta="right">{formatAmount(run.figures.late_fees.total)}</Table.Td>
                  <Table.Td>
                    {/* Offered only when the server would take it: a failed, deleted or missing pool. */}
                    {run.actions.includes("rebuild_pools") ? (
                      <Button
                        size="xs"
                        variant="subtle"
                        loading={rebuild.isPending && rebuild.variables === run.id}
                        aria-label={`Rebuild pools of run ${String(run.id)}`}
                        onClick={() => rebuildPools(run.id)}
                      >
                        Rebuild pools
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {runs.isSuccess && rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No production has run yet.
        </Text>
      ) : null}
    </Stack>
  );
}
