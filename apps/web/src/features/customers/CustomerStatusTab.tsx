import { Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { formatAmount, formatIsoDate } from "../../lib/format";
import { TAXABLE_CHARGES_LABEL, type CustomerSummary } from "@cyclebill/domain";
import { today } from "../../lib/business-date";
import { useCustomerSummary } from "./customer-api";
import { RetryAlert } from "../shell/RetryAlert";

/** Status: dates, balances, ageing and month/year-to-date summaries from GET /api/summary-data/customer/{id}. */
export function CustomerStatusTab({ clientId, customerId }: { clientId: number; customerId: number }) {
  const summary = useCustomerSummary(clientId, customerId);
  if (summary.isPending) {
    return (
      <Stack gap="md">
        <Skeleton h={120} />
        <Skeleton h={160} />
      </Stack>
    );
  }
  if (summary.isError) {
    return <RetryAlert title="The status could not be loaded" query={summary} />;
  }
  return <StatusPanels data={summary.data} />;
}

function date(value: string | null | undefined): string {
  return value ? formatIsoDate(value) : "—";
}

function StatusPanels({ data }: { data: CustomerSummary }) {
  const payments = [
    data.last_pay_date_1,
    data.last_pay_date_2,
    data.last_pay_date_3,
    data.last_pay_date_4,
  ].filter((value): value is string => Boolean(value));
  const ageing: [string, string][] = [
    ["Current", data.current_balance],
    ["30 days", data.overdue_30_days],
    ["60 days", data.overdue_60_days],
    ["90 days", data.overdue_90_days],
    ["Over 90 days", data.overdue_over_90_days],
  ];
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        <Figure label="Balance" value={formatAmount(data.balance)} strong />
        <Figure label="Previous balance (last statement)" value={formatAmount(data.previous_balance)} />
        <Figure label="Not yet on a statement" value={formatAmount(data.unprocessedBalance)} />
        <Figure label={`${TAXABLE_CHARGES_LABEL} this month`} value={formatAmount(data.tax)} />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Panel title="Dates">
          <Table verticalSpacing={6} aria-label="Dates">
            <Table.Tbody>
              <Row label="Opened" value={date(data.open_date)} />
              <Row label="Last payment" value={date(data.last_pay_date ?? data.last_pay_date_1)} />
              <Row
                label="Earlier payments"
                value={payments.length > 1 ? payments.slice(1).map(date).join(" · ") : "—"}
              />
              <Row label="Last charge" value={date(data.last_charge_date)} />
              <Row label="Last credit adjustment" value={date(data.last_cr_adj_date)} />
            </Table.Tbody>
          </Table>
        </Panel>
        <Panel
          title="Ageing"
          description={`The balance by how long it has been owed, as of today (${formatIsoDate(today())}).`}
        >
          <Table verticalSpacing={6} aria-label="Ageing">
            <Table.Thead>
              <Table.Tr>
                {ageing.map(([label]) => (
                  <Table.Th key={label} ta="right">
                    {label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <Table.Tr>
                {ageing.map(([label, value]) => (
                  <Table.Td key={label} ta="right" style={{ fontVariantNumeric: "tabular-nums" }}>
                    {formatAmount(value)}
                  </Table.Td>
                ))}
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Panel>
      </SimpleGrid>

      <Panel
        title="Activity"
        description="This calendar month, fiscal year to date and the fiscal year before."
      >
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing={6} striped aria-label="Activity">
            <Table.Thead>
              <Table.Tr>
                <Table.Th />
                <Table.Th ta="right">This month</Table.Th>
                <Table.Th ta="right">Year to date</Table.Th>
                <Table.Th ta="right">Last year</Table.Th>
                <Table.Th ta="right">Last amount</Table.Th>
                <Table.Th ta="right">Last date</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <ActivityRow
                label="Charges"
                mtd={data.currentCharges}
                ytd={data.ytdCharges}
                lastYear={data.charges_last_yr}
                lastAmount={data.last_charge_amount}
                lastDate={data.last_charge_date}
              />
              <ActivityRow
                label="Payments"
                mtd={data.currentPayments}
                ytd={data.ytdPayments}
                lastYear={data.payments_last_yr}
                lastAmount={data.last_pay_amount}
                lastDate={data.last_pay_date_1}
              />
              <ActivityRow
                label="Credit adjustments"
                mtd={data.currentCreditAdjustment}
                ytd={data.ytdCreditAdjustment}
                lastYear={data.last_year_credits}
                lastAmount={data.last_credit_amount}
                lastDate={data.last_cr_adj_date}
              />
              <ActivityRow
                label="Debit adjustments"
                mtd={data.currentDebitAdjustment}
                ytd={data.ytdDebitAdjustment}
                lastYear={data.last_year_db_adj}
                lastAmount={data.last_debit_amount}
                lastDate={data.last_db_adj_date}
              />
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Panel>
    </Stack>
  );
}

function Figure({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Paper withBorder p="md" radius="sm" role="group" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text
        size={strong ? "xl" : "lg"}
        fw={strong ? 700 : 600}
        style={{ fontVariantNumeric: "tabular-nums" }}
      >
        {value}
      </Text>
    </Paper>
  );
}

function Panel({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" radius="sm" component="section" aria-label={title}>
      <Group justify="space-between" align="baseline" mb="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        {description ? (
          <Text size="xs" c="dimmed">
            {description}
          </Text>
        ) : null}
      </Group>
      {children}
    </Paper>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <Table.Tr>
      <Table.Td c="dimmed" w="45%">
        {label}
      </Table.Td>
      <Table.Td fw={500}>{value}</Table.Td>
    </Table.Tr>
  );
}

function ActivityRow(props: {
  label: string;
  mtd: string;
  ytd: string;
  lastYear?: string;
  lastAmount?: string | null;
  lastDate?: string | null;
}) {
  const cell = (value: ReactNode) => (
    <Table.Td ta="right" style={{ fontVariantNumeric: "tabular-nums" }}>
      {value}
    </Table.Td>
  );
  return (
    <Table.Tr>
      <Table.Td fw={500}>{props.label}</Table.Td>
      {cell(formatAmount(props.mtd))}
      {cell(formatAmount(props.ytd))}
      {cell(props.lastYear === undefined ? "—" : formatAmount(props.lastYear))}
      {cell(props.lastAmount ? formatAmount(props.lastAmount) : "—")}
      {cell(date(props.lastDate))}
    </Table.Tr>
  );
}
