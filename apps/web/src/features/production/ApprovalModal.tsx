import {
  addDecimals,
  formatDecimal,
  parseDecimal,
  type ProductionClient,
  type ScheduledCycle,
} from "@cyclebill/domain";
import { Alert, Button, Group, Modal, Stack, Table, Text } from "@mantine/core";
import { describeApiError } from "../../api/api-client";
import { formatAmount } from "../../lib/format";
import { FigureCells, FigureHeaders } from "./FiguresCells";
import { useCyclePreview } from "./production-api";
import { useApproveScheduledRun } from "./schedule-api";

/** What the clients that bill add up to: held clients are out of the run, so out of its totals. */
function billedTotals(clients: ProductionClient[]) {
  const amount = (pick: (client: ProductionClient) => string) =>
    formatDecimal(
      clients.reduce((sum, client) => addDecimals(sum, parseDecimal(pick(client))), parseDecimal("0")),
      2,
    );
  const count = (pick: (client: ProductionClient) => number) =>
    clients.reduce((sum, client) => sum + pick(client), 0);
  const statements = (client: ProductionClient) => client.figures.statements;
  return {
    customers: count((client) => client.figures.customers),
    statements: count(
      (client) =>
        statements(client).mail +
        statements(client).email +
        statements(client).both +
        statements(client).pulled,
    ),
    recurring: {
      count: count((client) => client.figures.recurring.count),
      total: amount((client) => client.figures.recurring.total),
    },
    lateFees: {
      count: count((client) => client.figures.late_fees.count),
      total: amount((client) => client.figures.late_fees.total),
    },
  };
}

/**
 * A scheduled run held for approval: the preview's figures of its cycle and date per client (held
 * clients marked, as the run leaves them out), and "Approve", which starts it as a run by hand does.
 */
export function ApprovalModal(props: {
  item: ScheduledCycle;
  onClose: () => void;
  onApproved: (cycleRunId: number | null) => void;
}) {
  const { item } = props;
  const preview = useCyclePreview(item.cycle, item.run_date);
  const approve = useApproveScheduledRun();
  const held = new Map(item.held.map((client) => [client.client_id, client.reason]));
  const clients = preview.data?.clients ?? [];
  const billing = clients.filter((client) => !client.skip_reason && !held.has(client.client_id));
  const totals = preview.data ? billedTotals(billing) : null;
  return (
    <Modal
      opened
      onClose={props.onClose}
      title={`Approve the scheduled run of cycle ${item.cycle}?`}
      size="xl"
    >
      <Stack gap="sm">
        <Text>
          Cycle {item.cycle} for {item.run_date}, scheduled at {item.run_time ?? "—"}: {billing.length} client
          {billing.length === 1 ? " bills" : "s bill"}.
        </Text>
        {totals ? (
          <Text size="sm">
            {totals.customers} customers; {totals.statements} statements; {totals.recurring.count} recurring
            charges ({formatAmount(totals.recurring.total)}); {totals.lateFees.count} late fees (
            {formatAmount(totals.lateFees.total)}).
          </Text>
        ) : null}
        {preview.isError ? <Alert color="red">{describeApiError(preview.error)}</Alert> : null}
        <Table.ScrollContainer minWidth={900}>
          <Table striped aria-label="Preview of the scheduled run">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Client</Table.Th>
                <FigureHeaders />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {clients.map((client) => (
                <Table.Tr key={client.client_id}>
                  <Table.Td>{client.client_name}</Table.Td>
                  {held.has(client.client_id) || client.skip_reason ? (
                    <Table.Td colSpan={9}>
                      <Text size="sm" c="dimmed">
                        {held.has(client.client_id)
                          ? `Held out: ${held.get(client.client_id) ?? ""}`
                          : `Skipped: ${client.skip_label ?? ""}`}
                      </Text>
                    </Table.Td>
                  ) : (
                    <FigureCells figures={client.figures} />
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {approve.isError ? <Alert color="red">{describeApiError(approve.error)}</Alert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Not now
          </Button>
          <Button
            loading={approve.isPending}
            onClick={() =>
              item.id !== null &&
              approve.mutate(item.id, { onSuccess: (approved) => props.onApproved(approved.cycle_run_id) })
            }
          >
            Approve
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
