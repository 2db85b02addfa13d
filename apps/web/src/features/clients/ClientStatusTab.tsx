import {
  BILL_CRITERIA,
  BILL_CRITERIA_LABELS,
  BILL_FULFILMENT,
  BILL_FULFILMENT_LABELS,
  CLIENT_FINANCE_FLAGS,
  CLIENT_FINANCE_FLAG_LABELS,
  CLIENT_STATUS_CODES,
  CLIENT_STATUS_LABELS,
  CYCLE_DAYS,
  INACTIVE_FLAGS,
  INACTIVE_FLAG_LABELS,
  PROCESS_TYPES,
  PULL_EXPLANATIONS,
  PULL_EXPLANATION_LABELS,
} from "@cyclebill/domain";
import {
  DataList,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { formatIsoDate } from "../../lib/format";
import { ClientSection } from "./ClientSection";
import { selectOptions, type ClientForm } from "./client-form";
import type { ClientEditableField, ClientRecord } from "./client-record";
import { MONTH_OPTIONS } from "../../lib/months";

const STATUS_OPTIONS = selectOptions(
  CLIENT_STATUS_CODES,
  (code) => `${code} · ${CLIENT_STATUS_LABELS[code]}`,
);
const INACTIVE_OPTIONS = selectOptions(INACTIVE_FLAGS, (flag) =>
  flag === "" ? "None" : `${flag} · ${INACTIVE_FLAG_LABELS[flag]}`,
);
const CYCLE_OPTIONS = CYCLE_DAYS.map((day) => String(day));
const FINANCE_OPTIONS = selectOptions(
  CLIENT_FINANCE_FLAGS,
  (flag) => `${flag} · ${CLIENT_FINANCE_FLAG_LABELS[flag]}`,
);
const CRITERIA_OPTIONS = selectOptions(BILL_CRITERIA, (code) => `${code} · ${BILL_CRITERIA_LABELS[code]}`);
const FULFILMENT_OPTIONS = selectOptions(BILL_FULFILMENT, (code) =>
  code === "" ? "Mail" : `${code} · ${BILL_FULFILMENT_LABELS[code]}`,
);
const PROCESS_OPTIONS = selectOptions(PROCESS_TYPES, (code) => `Type ${code}`);
const PULL_OPTIONS = selectOptions(PULL_EXPLANATIONS, (code) => `${code} · ${PULL_EXPLANATION_LABELS[code]}`);

type LateFeeTier = {
  label: string;
  kind: ClientEditableField;
  percent: ClientEditableField;
  flat: ClientEditableField;
};

// A tier's fee is a flat amount ("rate") or a percent of the overdue balance.
const LATE_FEE_TIERS: LateFeeTier[] = [
  {
    label: "30 days",
    kind: "thirtyDayRateOrPercent",
    percent: "finance_rate_30_day",
    flat: "day_charge_30_day",
  },
  {
    label: "60 days",
    kind: "sixtyDayRateOrPercent",
    percent: "day_finance_rate_60_day",
    flat: "day_charge_60_day",
  },
  {
    label: "90 days",
    kind: "ninetyDayRateOrPercent",
    percent: "day_finance_rate_90_day",
    flat: "day_charge_90_day",
  },
];

export function ClientStatusTab({ form, record }: { form: ClientForm; record: ClientRecord }) {
  // Non-admins see the provider's decisions read-only; say why.
  const byProvider = (what: string) => (form.access.isAdmin ? undefined : `${what} set by the provider.`);
  return (
    <Stack gap="md">
      <ClientSection title="Status" cols={3} description={byProvider("Status and inactive flag are")}>
        <Select label="Status" data={STATUS_OPTIONS} allowDeselect={false} {...form.select("status_code")} />
        <Select
          label="Inactive flag"
          data={INACTIVE_OPTIONS}
          allowDeselect={false}
          {...form.select("inactive_flag")}
        />
        <TextInput label="Client start date" type="date" {...form.text("client_start_date")} />
      </ClientSection>

      <Paper withBorder p="md" radius="sm" component="section" aria-label="Billing cycle">
        <Title order={3} size="h5" mb="sm">
          Billing cycle
        </Title>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
          <Stack gap="sm">
            <Select
              label="Cycle processing day"
              description="Day of the month bills are produced; 99 when there is no regular day."
              data={CYCLE_OPTIONS}
              allowDeselect={false}
              maxDropdownHeight={260}
              {...form.select("normal_cycle")}
            />
            <Select
              label="Fiscal year reset month"
              data={MONTH_OPTIONS}
              allowDeselect={false}
              {...form.select("fiscal_year_reset_month")}
            />
            <TextInput
              label="Permission to reference date"
              type="date"
              {...form.text("permission_to_ref_date")}
            />
          </Stack>
          <DataList size="sm" labelWidth={190} withDivider aria-label="Last production">
            <Fact label="Cycle ran this month" value={record.cycle_ran ? "Yes" : "No"} />
            <Fact label="Days in last cycle" value={String(record.days_in_last_cycle)} />
            <Fact label="First billing" value={dateOrDash(record.date_first_billing)} />
            <Fact label="Last billing" value={dateOrDash(record.date_last_billing)} />
            <Fact label="This billing" value={dateOrDash(record.date_this_billing)} />
            <Fact label="Bills sent this year" value={record.number_bills_sent_ytd.toLocaleString("en-US")} />
            <Fact
              label="Bulk inserts sent this year"
              value={record.number_bi_sent_ytd.toLocaleString("en-US")}
            />
          </DataList>
        </SimpleGrid>
      </Paper>

      <Paper withBorder p="md" radius="sm" component="section" aria-label="Finance charges">
        <Title order={3} size="h5" mb={2}>
          Finance charges
        </Title>
        <Text size="xs" c="dimmed" mb="sm">
          Late fees apply only to the tiers that have a fee filled in.
        </Text>
        <Stack gap="md">
          <Select
            label="Finance flag"
            data={FINANCE_OPTIONS}
            allowDeselect={false}
            maw={360}
            {...form.select("finance_flag")}
          />
          <Table withTableBorder={false} verticalSpacing="xs" maw={640} aria-label="Late fees">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={90}>Overdue</Table.Th>
                <Table.Th w={230}>Fee type</Table.Th>
                <Table.Th>Fee</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {LATE_FEE_TIERS.map((tier) => (
                <LateFeeRow key={tier.label} form={form} tier={tier} />
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      </Paper>

      <ClientSection
        title="Production"
        cols={4}
        description={byProvider("Bill criteria, fulfilment and process type are")}
      >
        <Select
          label="Bill criteria"
          data={CRITERIA_OPTIONS}
          allowDeselect={false}
          {...form.select("bill_criteria")}
        />
        <Select
          label="Bill fulfilment"
          data={FULFILMENT_OPTIONS}
          allowDeselect={false}
          {...form.select("bill_fulfilment")}
        />
        <Select
          label="Process type"
          data={PROCESS_OPTIONS}
          allowDeselect={false}
          {...form.select("process_type")}
        />
        <TextInput label="Code set" {...form.text("code_set")} />
        {form.access.isAdmin ? (
          <>
            <TextInput label="Bulk pull duration" inputMode="numeric" {...form.text("pull_duration")} />
            <Select
              label="Pull explanation"
              data={PULL_OPTIONS}
              allowDeselect={false}
              {...form.select("pull_explanation")}
            />
          </>
        ) : null}
      </ClientSection>
    </Stack>
  );
}

function LateFeeRow({ form, tier }: { form: ClientForm; tier: LateFeeTier }) {
  const percent = form.values[tier.kind] === "percent";
  const readOnly = form.isReadOnly(tier.kind);
  const valueField = percent ? tier.percent : tier.flat;
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {tier.label}
        </Text>
      </Table.Td>
      <Table.Td>
        <SegmentedControl
          size="xs"
          aria-label={`${tier.label} fee type`}
          disabled={readOnly}
          value={form.values[tier.kind] || "rate"}
          onChange={(value) => form.set(tier.kind, value)}
          data={[
            { value: "rate", label: "Flat amount" },
            { value: "percent", label: "Percent" },
          ]}
        />
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap" align="flex-start">
          <TextInput
            key={valueField}
            aria-label={`${tier.label} ${percent ? "percent" : "flat amount"}`}
            size="sm"
            w={160}
            inputMode="decimal"
            placeholder="Not charged"
            leftSection={percent ? undefined : "$"}
            rightSection={percent ? "%" : undefined}
            {...form.text(valueField)}
          />
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue>{value}</DataList.ItemValue>
    </DataList.Item>
  );
}

function dateOrDash(value: string | null): string {
  return value ? formatIsoDate(value) : "—";
}
