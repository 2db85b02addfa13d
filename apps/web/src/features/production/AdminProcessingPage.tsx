import { ADMIN_CYCLES, type ProductionCyclePreview } from "@cyclebill/domain";
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { describeApiError } from "../../api/api-client";
import { today } from "../../lib/business-date";
import { formatAmount } from "../../lib/format";
import { useUser } from "../auth/user-context";
import { LoadingRows } from "../shell/LoadingRows";
import { PageHeader } from "../shell/PageHeader";
import { ClientCustomers } from "./ClientCustomers";
import { FigureCells, FigureHeaders } from "./FiguresCells";
import { useCyclePreview, useProductionCycles, useProductionRun, useStartRun } from "./production-api";
import { PoolList } from "./PoolList";
import { RunHistory } from "./RunHistory";
import { RunProgress } from "./RunProgress";
import { countOf } from "../../lib/plural";
import { ScheduledCycles } from "./ScheduledCycles";

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Admin Processing: pick a cycle and run date, preview what the run does per client (drill into a
 * client's customers and one customer's lines), run it with a confirmation, follow its progress
 * (the run id stays in the address, so a reload keeps the bar), and see past runs.
 */
export function AdminProcessingPage() {
  const user = useUser();
  if (!user.isAdmin) {
    return (
      <Alert color="yellow" title="Admin Processing is for provider admins" maw={640}>
        Production runs are started by the provider&apos;s administrators.
      </Alert>
    );
  }
  return <AdminProcessing />;
}

function AdminProcessing() {
  const [params, setParams] = useSearchParams();
  const cycle = Number(params.get("cycle") ?? "1") || 1;
  const rawDate = params.get("run_date") ?? "";
  const runDate = DATE_PATTERN.test(rawDate) ? rawDate : today();
  const runId = Number(params.get("run") ?? "") || null;
  const [clientId, setClientId] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [catchUp, setCatchUp] = useState(false);
  const cycles = useProductionCycles();
  const preview = useCyclePreview(cycle, runDate);
  // Ticking catch-up on the confirmation shows what the run would then bill: the same computation.
  const catchUpPreview = useCyclePreview(cycle, runDate, { catchUp: true, enabled: confirming && catchUp });
  const run = useProductionRun(runId);
  const start = useStartRun();

  const update = (next: Record<string, string | null>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value === null) merged.delete(key);
      else merged.set(key, value);
    }
    setParams(merged);
  };

  const cycleOptions = ADMIN_CYCLES.map((n) => {
    const clients = cycles.data?.results.find((item) => item.cycle === n)?.clients ?? 0;
    return { value: String(n), label: `Cycle ${n} (${clients} client${clients === 1 ? "" : "s"})` };
  });
  const billing = preview.data?.clients.filter((client) => !client.skip_reason) ?? [];
  // The run's own refusal of this date (too far ahead, before a last billing): shown instead of a
  // preview of a run that would not start.
  const refusal = preview.data?.run_refusal ?? null;
  // What the admin confirms is kept as shown: the preview refetches while the run starts.
  const [confirmed, setConfirmed] = useState<{
    clients: string[];
    totals: NonNullable<typeof preview.data>["totals"];
  } | null>(null);
  const openConfirmation = () => {
    if (!preview.data) return;
    setConfirmed({ clients: billing.map((client) => client.client_name), totals: preview.data.totals });
    setCatchUp(false);
    setConfirming(true);
  };

  const confirmRun = () => {
    start.mutate(
      { cycle, runDate, catchUp },
      {
        onSuccess: (started) => {
          setConfirming(false);
          update({ run: String(started.id) });
        },
      },
    );
  };

  return (
    <Stack gap="lg">
      <PageHeader
        title="Admin Processing"
        description="Production runs: recurring charges, late fees and statements"
      />
      <Group align="flex-end" gap="md" wrap="wrap">
        <Select
          label="Cycle"
          data={cycleOptions}
          value={String(cycle)}
          onChange={(value) => {
            setClientId(null);
            update({ cycle: value });
          }}
          allowDeselect={false}
          w={220}
        />
        <TextInput
          label="Run date"
          type="date"
          value={runDate}
          onChange={(event) => {
            setClientId(null);
            update({ run_date: event.currentTarget.value || null });
          }}
          w={180}
        />
        <Button
          onClick={openConfirmation}
          disabled={!preview.data || billing.length === 0 || refusal !== null}
        >
          Run cycle {cycle}
        </Button>
      </Group>

      {run.data ? <RunProgress run={run.data} /> : null}

      <Stack gap="xs">
        <Title order={2} size="h4">
          Clients of cycle {cycle} on {runDate}
        </Title>
        {refusal !== null ? (
          <Alert color="yellow" title="This run date cannot be run" data-testid="run-date-refusal">
            {refusal}
          </Alert>
        ) : (
          <CyclePreviewTable preview={preview.data} loading={preview.isPending} onOpen={setClientId} />
        )}
        {preview.isError ? <Alert color="red">{describeApiError(preview.error)}</Alert> : null}
      </Stack>

      {clientId !== null && refusal === null ? (
        <ClientCustomers clientId={clientId} runDate={runDate} />
      ) : null}

      <ScheduledCycles onShowRun={(id) => update({ run: String(id) })} />

      <RunHistory onSelect={(id) => update({ run: String(id) })} />

      <PoolList />

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={`Run cycle ${cycle}?`} size="lg">
        <Stack gap="sm">
          {confirmed ? (
            <ConfirmedFigures
              cycle={cycle}
              runDate={runDate}
              clients={confirmed.clients}
              totals={catchUp && catchUpPreview.data ? catchUpPreview.data.totals : confirmed.totals}
            />
          ) : null}
          <Text size="sm" c="dimmed">
            The statements close each client&apos;s books through {runDate}: nothing dated on or before it can
            be posted afterwards unless a provider admin reopens the period.
          </Text>
          <Checkbox
            label="Catch up first runs: bill a client's first run from its start date (at most 12 months) instead of one cycle"
            checked={catchUp}
            onChange={(event) => setCatchUp(event.currentTarget.checked)}
          />
          {start.isError ? <Alert color="red">{describeApiError(start.error)}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button onClick={confirmRun} loading={start.isPending}>
              Start the run
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function CyclePreviewTable(props: {
  preview: ProductionCyclePreview | undefined;
  loading: boolean;
  onOpen: (clientId: number) => void;
}) {
  const clients = props.preview?.clients ?? [];
  return (
    <>
      <Table.ScrollContainer minWidth={1000}>
        <Table striped aria-label="Clients of the cycle">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Client</Table.Th>
              <Table.Th>Period</Table.Th>
              <FigureHeaders />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.loading ? <LoadingRows columns={10} rows={2} /> : null}
            {clients.map((client) => (
              <Table.Tr key={client.client_id}>
                <Table.Td>
                  <Anchor component="button" type="button" onClick={() => props.onOpen(client.client_id)}>
                    {client.client_name}
                  </Anchor>
                </Table.Td>
                {client.skip_reason ? (
                  <Table.Td colSpan={10}>
                    <Text size="sm" c="dimmed">
                      Skipped: {client.skip_label}
                    </Text>
                  </Table.Td>
                ) : (
                  <>
                    <Table.Td>
                      {client.period_start} to {client.period_end}
                    </Table.Td>
                    <FigureCells figures={client.figures} />
                  </>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {props.preview && clients.length === 0 ? (
        <Text size="sm" c="dimmed">
          No client bills on this cycle.
        </Text>
      ) : null}
    </>
  );
}

/** The run's figures as confirmed (with catch-up: the catch-up preview's). */
function ConfirmedFigures(props: {
  cycle: number;
  runDate: string;
  clients: string[];
  totals: ProductionCyclePreview["totals"];
}) {
  const { totals, clients } = props;
  const statements =
    totals.statements.mail + totals.statements.email + totals.statements.both + totals.statements.pulled;
  return (
    <>
      <Text>
        Run cycle {props.cycle} for {props.runDate}: {clients.length} client
        {clients.length === 1 ? "" : "s"} ({clients.join(", ")}).
      </Text>
      <Text size="sm">
        {countOf(totals.customers, "customer")}; {countOf(statements, "statement")};{" "}
        {countOf(totals.recurring.count, "recurring charge")} ({formatAmount(totals.recurring.total)});{" "}
        {countOf(totals.late_fees.count, "late fee")} ({formatAmount(totals.late_fees.total)}).
      </Text>
    </>
  );
}
