import type { ScheduledCycle } from "@cyclebill/domain";
import { Alert, Badge, Button, Stack, Table, Text, Title } from "@mantine/core";
import { useState } from "react";
import { describeApiError } from "../../api/api-client";
import { ApprovalModal } from "./ApprovalModal";
import { CycleSchedules } from "./CycleSchedules";
import { ProductionHolds } from "./ProductionHolds";
import { useScheduledCycles } from "./schedule-api";

const STATE_LABELS: Record<ScheduledCycle["state"], { label: string; color: string }> = {
  due: { label: "Due", color: "gray" },
  waiting_approval: { label: "Waiting for approval", color: "orange" },
  running: { label: "Running", color: "blue" },
  done: { label: "Done", color: "green" },
  failed: { label: "Failed", color: "red" },
  held: { label: "Held", color: "yellow" },
};

export function ScheduledStateBadge({ state }: { state: ScheduledCycle["state"] }) {
  const { label, color } = STATE_LABELS[state];
  // Wide enough for its whole word: a badge never truncates its state.
  return (
    <Badge color={color} variant="light" style={{ overflow: "visible" }} miw="fit-content">
      {label}
    </Badge>
  );
}

/**
 * Scheduled cycles on Admin Processing: today's scheduled runs and their state (approve one held
 * for approval, open one that ran), each cycle day's schedule, and the clients held out.
 */
export function ScheduledCycles(props: { onShowRun: (cycleRunId: number) => void }) {
  const scheduled = useScheduledCycles();
  const [approving, setApproving] = useState<ScheduledCycle | null>(null);
  const items = scheduled.data?.results ?? [];
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Scheduled cycles
      </Title>
      {scheduled.isError ? <Alert color="red">{describeApiError(scheduled.error)}</Alert> : null}
      {scheduled.data && items.length === 0 ? (
        <Text size="sm" c="dimmed">
          No cycle is scheduled today.
        </Text>
      ) : null}
      {items.length > 0 ? (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="Today's scheduled cycles">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Cycle</Table.Th>
                <Table.Th>Run date</Table.Th>
                <Table.Th>Time</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Held out</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr key={`${item.cycle}-${item.run_date}`}>
                  <Table.Td>Cycle {item.cycle}</Table.Td>
                  <Table.Td>{item.run_date}</Table.Td>
                  <Table.Td>{item.run_time ?? "—"}</Table.Td>
                  <Table.Td>
                    <ScheduledStateBadge state={item.state} />
                    {item.error ? (
                      <Text size="xs" c="red">
                        {item.error}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    {item.held.length === 0
                      ? "—"
                      : item.held.map((held) => `${held.client_name}: ${held.reason}`).join("; ")}
                  </Table.Td>
                  <Table.Td>
                    {item.state === "waiting_approval" ? (
                      <Button size="xs" onClick={() => setApproving(item)}>
                        Review and approve
                      </Button>
                    ) : item.cycle_run_id !== null ? (
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => props.onShowRun(item.cycle_run_id ?? 0)}
                      >
                        Show run
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <CycleSchedules />
      <ProductionHolds />
      {approving ? (
        <ApprovalModal
          item={approving}
          onClose={() => setApproving(null)}
          onApproved={(cycleRunId) => {
            setApproving(null);
            if (cycleRunId !== null) props.onShowRun(cycleRunId);
          }}
        />
      ) : null}
    </Stack>
  );
}
