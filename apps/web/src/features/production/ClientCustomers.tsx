import { Anchor, Badge, Button, Group, Modal, Stack, Table, Text, Title } from "@mantine/core";
import { CANNOT_DELIVER_REASONS } from "@cyclebill/domain";
import { useState } from "react";
import { useDownload } from "../../api/download";
import { formatAmount } from "../../lib/format";
import { DownloadIcon } from "../shell/icons";
import { LoadingRows } from "../shell/LoadingRows";
import { TablePager } from "../shell/TablePager";
import { useClientPreview, useCustomerPreview } from "./production-api";

const PAGE_SIZE = 15;
const DELIVERY_LABELS = { mail: "Mail", email: "Email", both: "Email and mail", pulled: "Pulled" } as const;

/** A client's customers as the run would leave them; a customer opens its lines and ageing. */
export function ClientCustomers({ clientId, runDate }: { clientId: number; runDate: string }) {
  const [page, setPage] = useState(1);
  const [customerId, setCustomerId] = useState<number | null>(null);
  const preview = useClientPreview(clientId, runDate, (page - 1) * PAGE_SIZE, PAGE_SIZE);
  const rows = preview.data?.results ?? [];
  const title = (
    <Title order={2} size="h4">
      Customers of {preview.data?.client_name ?? "the client"}
    </Title>
  );
  // A skipped client (already run, inactive…) has nothing to preview: say why instead of an empty table.
  if (preview.data?.skip_label) {
    return (
      <Stack gap="xs">
        {title}
        <Text>
          Skipped: {preview.data.skip_label}. A run on {runDate} posts nothing for this client.
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      {title}
      <Table.ScrollContainer minWidth={800}>
        <Table striped aria-label="Customers of the client">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>No.</Table.Th>
              <Table.Th>Customer</Table.Th>
              <Table.Th>Flags</Table.Th>
              <Table.Th ta="right">Balance</Table.Th>
              <Table.Th ta="right">Recurring</Table.Th>
              <Table.Th ta="right">Late fee</Table.Th>
              <Table.Th ta="right">New balance</Table.Th>
              <Table.Th>Statement</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.isPending ? <LoadingRows columns={8} /> : null}
            {rows.map((row) => (
              <Table.Tr key={row.customer_id}>
                <Table.Td>{row.customer_no}</Table.Td>
                <Table.Td>
                  <Anchor component="button" type="button" onClick={() => setCustomerId(row.customer_id)}>
                    {row.customer_name || `Customer ${row.customer_no}`}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  pull {row.pull_flag} · finance {row.finance_flag}
                  {row.delete_flag ? ` · delete ${row.delete_flag}` : ""}
                </Table.Td>
                <Table.Td ta="right">{formatAmount(row.balance)}</Table.Td>
                <Table.Td ta="right">{formatAmount(row.recurring.total)}</Table.Td>
                <Table.Td ta="right">{formatAmount(row.late_fee)}</Table.Td>
                <Table.Td ta="right">{formatAmount(row.new_balance)}</Table.Td>
                <Table.Td>
                  {row.delivery ? (
                    <Badge variant="light">{DELIVERY_LABELS[row.delivery]}</Badge>
                  ) : (
                    <Text
                      size="sm"
                      c={
                        row.no_statement_reason && CANNOT_DELIVER_REASONS.includes(row.no_statement_reason)
                          ? "red"
                          : "dimmed"
                      }
                    >
                      None: {row.no_statement_label}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TablePager
        total={preview.data?.count ?? 0}
        page={page}
        pageSize={PAGE_SIZE}
        onPageChange={setPage}
        noun={{ one: "customer" }}
      />
      <CustomerPreviewDialog
        clientId={clientId}
        customerId={customerId}
        runDate={runDate}
        onClose={() => setCustomerId(null)}
      />
    </Stack>
  );
}

function CustomerPreviewDialog(props: {
  clientId: number;
  customerId: number | null;
  runDate: string;
  onClose: () => void;
}) {
  const preview = useCustomerPreview(props.clientId, props.customerId, props.runDate);
  const download = useDownload();
  const data = preview.data;
  return (
    <Modal opened={props.customerId !== null} onClose={props.onClose} title="Preview statement" size="xl">
      {data ? (
        <Stack gap="sm">
          <Group justify="space-between">
            <Text fw={600}>
              {data.customer_name} (no. {data.customer_no})
            </Text>
            <Group gap="sm">
              <Text size="sm">
                Period {data.period_start} to {data.period_end}
              </Text>
              {data.statement ? (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<DownloadIcon />}
                  loading={download.isPending}
                  onClick={() =>
                    download.mutate({
                      path: `/dailyproduction/client/${String(props.clientId)}/customers/${String(data.customer_id)}/pdf/`,
                      query: { run_date: props.runDate },
                      fallbackName: `Statement preview ${String(data.customer_no)} ${props.runDate}.pdf`,
                    })
                  }
                >
                  Statement PDF
                </Button>
              ) : null}
            </Group>
          </Group>
          {download.isError ? (
            <Text size="sm" c="red">
              The preview statement could not be made: {download.error.message}
            </Text>
          ) : null}
          <Text size="sm">
            Balance {formatAmount(data.balance)} → new balance {formatAmount(data.new_balance)};{" "}
            {data.delivery
              ? `statement by ${DELIVERY_LABELS[data.delivery].toLowerCase()}`
              : `no statement (${data.no_statement_label})`}
          </Text>
          <Text size="sm">
            Ageing: current {formatAmount(data.ageing.current)}, 30 days {formatAmount(data.ageing.days30)},
            60 days {formatAmount(data.ageing.days60)}, 90 days {formatAmount(data.ageing.days90)}, over 90{" "}
            {formatAmount(data.ageing.over90)}
          </Text>
          <Table aria-label="Lines the run posts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Code</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th>Date</Table.Th>
                <Table.Th ta="right">Qty</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.lines.map((line, index) => (
                <Table.Tr key={index}>
                  <Table.Td>{line.code}</Table.Td>
                  <Table.Td>{line.description}</Table.Td>
                  <Table.Td>{line.service_date}</Table.Td>
                  <Table.Td ta="right">{line.quantity}</Table.Td>
                  <Table.Td ta="right">{formatAmount(line.amount)}</Table.Td>
                </Table.Tr>
              ))}
              {data.lines.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={5}>The run posts nothing for this customer.</Table.Td>
                </Table.Tr>
              ) : null}
            </Table.Tbody>
          </Table>
        </Stack>
      ) : (
        <Text size="sm">Loading…</Text>
      )}
    </Modal>
  );
}
