import { Alert, Stack, TextInput } from "@mantine/core";
import { ClientSection } from "./ClientSection";
import type { ClientForm } from "./client-form";
import type { ClientEditableField } from "./client-record";

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

export function ClientRatesTab({ form }: { form: ClientForm }) {
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
    </Stack>
  );
}
