import { Alert, Select, Stack, Table, Text, TextInput } from "@mantine/core";
import { GATEWAY_HASH_TYPES, multiplyRateByQuantity, sumAmounts } from "@cyclebill/domain";
import { formatAmount, formatIsoDate } from "../../lib/format";
import { ClientSection } from "./ClientSection";
import { selectOptions, type ClientForm } from "./client-form";
import type { ClientEditableField, ClientRecord } from "./client-record";

const BILL_RATES: { field: ClientEditableField; label: string }[] = [
  { field: "mailed_bill_rate", label: "Mailed bill rate" },
  { field: "emailed_bill_rate", label: "Emailed bill rate" },
  { field: "credit_card_bill_rate", label: "Credit card bill rate" },
  { field: "pulled_bill_rate", label: "Pulled bill rate" },
  { field: "overflow_bill_rate", label: "Overflow bill rate" },
  { field: "account_rate", label: "Account rate" },
  { field: "discounts", label: "Discounts" },
  { field: "basic_fee", label: "Basic fee" },
];

const VOLUME_COUNTS: { field: ClientEditableField; label: string }[] = [
  { field: "number_mailed_bills", label: "Mailed bills" },
  { field: "number_emailed_bills", label: "Emailed bills" },
  { field: "number_credit_card_bills", label: "Credit card bills" },
  { field: "number_pulled_bills", label: "Pulled bills" },
  { field: "number_bill_overflows", label: "Bill overflows" },
];

/** What each kind of bill of the last cycle cost at the rate beside it (the basic fee is added to these). */
const USAGE: { count: ClientEditableField; rate: ClientEditableField; label: string }[] = [
  { count: "number_mailed_bills", rate: "mailed_bill_rate", label: "Mailed bills" },
  { count: "number_emailed_bills", rate: "emailed_bill_rate", label: "Emailed bills" },
  { count: "number_pulled_bills", rate: "pulled_bill_rate", label: "Pulled bills" },
  {
    count: "number_bill_overflows",
    rate: "overflow_bill_rate",
    label: "Overflow bills (more than one page)",
  },
];

// "" (unset) seals as BluePay's SDKs do; the others are for accounts still set to an older hash.
const HASH_TYPE_OPTIONS = selectOptions(["", ...GATEWAY_HASH_TYPES], (type) =>
  type === "" ? "HMAC_SHA512 (default)" : type,
);

function wholeOrZero(value: string): string {
  return /^\d+$/.test(value.trim()) ? value.trim() : "0";
}

function decimalOrZero(value: string): string {
  return /^-?\d+(\.\d+)?$/.test(value.trim()) ? value.trim() : "0";
}

function toAmountOrZero(value: string): string {
  return /^\d+(\.\d{1,2})?$/.test(value.trim()) ? value.trim() : "0.00";
}

/** The last production cycle's bill counts, what they cost at the client's rates, and the year so far. */
function CycleUsage({ form, record }: { form: ClientForm; record: ClientRecord }) {
  const lines = USAGE.map((line) => {
    const count = wholeOrZero(form.text(line.count).value);
    const rate = decimalOrZero(form.text(line.rate).value);
    return { ...line, count, rate, cost: multiplyRateByQuantity(rate, count) };
  });
  // The basic fee is charged every cycle whatever the bills: part of what the cycle costs.
  const basicFee = toAmountOrZero(form.text("basic_fee").value);
  return (
    <ClientSection
      title="Last cycle's usage"
      description={
        record.date_last_billing
          ? `The production run of ${formatIsoDate(record.date_last_billing)}, at this client's rates.`
          : "No production run has billed this client yet."
      }
      cols={1}
    >
      <Table aria-label="Last cycle's usage" maw={640}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Bills</Table.Th>
            <Table.Th ta="right">Count</Table.Th>
            <Table.Th ta="right">Rate</Table.Th>
            <Table.Th ta="right">Cost</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line) => (
            <Table.Tr key={line.count}>
              <Table.Td>{line.label}</Table.Td>
              <Table.Td ta="right">{line.count}</Table.Td>
              <Table.Td ta="right">{line.rate}</Table.Td>
              <Table.Td ta="right">{formatAmount(line.cost)}</Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Td>Basic fee</Table.Td>
            <Table.Td />
            <Table.Td />
            <Table.Td ta="right">{formatAmount(basicFee)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td fw={600}>Total</Table.Td>
            <Table.Td />
            <Table.Td />
            <Table.Td ta="right" fw={600}>
              {formatAmount(sumAmounts([...lines.map((line) => line.cost), basicFee]))}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Text size="sm" c="dimmed">
        Bills sent this fiscal year, this cycle's included:{" "}
        {record.number_bills_sent_ytd.toLocaleString("en-US")}
      </Text>
    </ClientSection>
  );
}

export function ClientRatesTab({ form, record }: { form: ClientForm; record: ClientRecord }) {
  return (
    <Stack gap="md">
      {form.access.canEditRates ? null : (
        <Alert color="gray" variant="light" title="Rates are read-only">
          Your billing provider sets these rates. Contact them to change them.
        </Alert>
      )}
      <ClientSection
        title="Bill rates"
        description="What the provider charges this client per bill."
        cols={4}
      >
        {BILL_RATES.map(({ field, label }) => (
          <TextInput
            key={field}
            label={label}
            inputMode="decimal"
            leftSection={field === "basic_fee" ? "$" : undefined}
            {...form.text(field)}
          />
        ))}
      </ClientSection>
      <ClientSection title="Volume counts" cols={5}>
        {VOLUME_COUNTS.map(({ field, label }) => (
          <TextInput key={field} label={label} inputMode="numeric" {...form.text(field)} />
        ))}
      </ClientSection>
      <ClientSection
        title="Payment gateway"
        description="The seal hash the client's BluePay account expects (its “Hash Type in APIs” setting)."
        cols={4}
      >
        <Select
          label="Seal hash type"
          data={HASH_TYPE_OPTIONS}
          allowDeselect={false}
          data-testid="gateway-hash-type"
          {...form.select("gateway_hash_type")}
        />
      </ClientSection>
      <CycleUsage form={form} record={record} />
    </Stack>
  );
}
