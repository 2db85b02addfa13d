import type { BulkPaymentResult, CardRun } from "@cyclebill/domain";
import { Alert, Badge, Group, SegmentedControl, Skeleton, Stack, Table, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { describeApiError } from "../../api/api-client";
import { formatAmount } from "../../lib/format";
import { JobProgress } from "../../shared/JobProgress";
import { TablePager } from "../shell/TablePager";
import { CARD_RUN_RESULTS_LIMIT, useCardRun } from "./payments-api";
import { EmptyRow } from "../shell/LoadingRows";

type Filter = "all" | "approved" | "declined";

/** A card run (Process CC or autopay): progress while it runs, then per-customer results and totals. */
export function CardRunResults(props: { clientId: number; runId: number; onFinished?: () => void }) {
  const { clientId, runId, onFinished } = props;
  const [page, setPage] = useState(1);
  const run = useCardRun(clientId, runId, page);
  if (run.isPending) return <Skeleton h={120} />;
  if (run.isError) {
    return (
      <Alert color="red" title="The card run could not be loaded">
        {describeApiError(run.error)}
      </Alert>
    );
  }
  return <CardRunView run={run.data} page={page} onPageChange={setPage} onFinished={onFinished} />;
}

function CardRunView({
  run,
  page,
  onPageChange,
  onFinished,
}: {
  run: CardRun;
  page: number;
  onPageChange: (page: number) => void;
  onFinished?: () => void;
}) {
  const [filter, setFilter] = useState<Filter>("all");
  const finished = run.job.status === "succeeded" || run.job.status === "failed";
  // Balances and last messages changed: the page refreshes what it shows beside the run.
  useEffect(() => {
    if (finished) onFinished?.();
  }, [finished, onFinished]);
  const rows = run.paymentResults.filter(
    (row) => filter === "all" || (filter === "approved" ? row.approved : !row.approved),
  );
  return (
    <Stack gap="md" aria-label="Card run">
      <JobProgress run={run.job} unit={{ one: "customer" }} />
      <Group gap="md" data-testid="card-run-totals">
        <Badge color="teal" variant="light" size="lg">
          {run.approved_count} approved · {formatAmount(run.approved_total)}
        </Badge>
        <Badge color="red" variant="light" size="lg">
          {run.declined_count} declined
        </Badge>
        {run.pending_count > 0 ? (
          <Badge color="gray" variant="light" size="lg">
            {run.pending_count} awaiting an answer
          </Badge>
        ) : null}
      </Group>
      {finished && run.pending_count > 0 ? (
        <Alert color="yellow" variant="light" title="Some answers are still outstanding">
          The gateway has not answered for {run.pending_count} customer(s). They are settled by asking the
          gateway, never by charging again; reload this run later.
        </Alert>
      ) : null}
      {run.count > 0 ? (
        <>
          <SegmentedControl
            size="xs"
            w="fit-content"
            value={filter}
            onChange={(value) => setFilter(value as Filter)}
            data={[
              { value: "all", label: "All" },
              { value: "approved", label: "Approved" },
              { value: "declined", label: "Declined" },
            ]}
            aria-label="Show results"
          />
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-label="Payment results">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>No.</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Name 2</Table.Th>
                  <Table.Th ta="right">Amount</Table.Th>
                  <Table.Th>Result</Table.Th>
                  <Table.Th>Message</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <ResultRow key={row.customer_id} row={row} />
                ))}
                {rows.length === 0 ? (
                  <EmptyRow columns={6} look="plain">
                    No {filter} results on this page.
                  </EmptyRow>
                ) : null}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {run.count > CARD_RUN_RESULTS_LIMIT ? (
            <TablePager
              total={run.count}
              page={page}
              pageSize={CARD_RUN_RESULTS_LIMIT}
              onPageChange={onPageChange}
              noun={{ one: "result" }}
            />
          ) : null}
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {finished ? "No customer was charged by this run." : "Waiting for the first answers…"}
        </Text>
      )}
    </Stack>
  );
}

const STATUS_LABELS: Record<BulkPaymentResult["status"], string> = {
  pending: "Pending",
  unknown: "Unknown",
  approved: "Approved",
  declined: "Declined",
  error: "Error",
  duplicate: "Duplicate",
  skipped: "Skipped",
};

function ResultRow({ row }: { row: BulkPaymentResult }) {
  const waiting = row.status === "pending" || row.status === "unknown" || row.status === "skipped";
  const color = row.approved ? "teal" : waiting ? "gray" : "red";
  return (
    <Table.Tr data-status={row.status}>
      <Table.Td>{row.customer_no}</Table.Td>
      <Table.Td>{row.name1}</Table.Td>
      <Table.Td>{row.name2}</Table.Td>
      <Table.Td ta="right">{formatAmount(row.amount_response)}</Table.Td>
      <Table.Td>
        <Badge color={color} variant="light">
          {STATUS_LABELS[row.status]}
        </Badge>
      </Table.Td>
      <Table.Td>{row.message_response}</Table.Td>
    </Table.Tr>
  );
}
