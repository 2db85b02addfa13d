import { ALTERNATE_ADDRESS_FLAGS } from "@cyclebill/domain";
import { Badge, Checkbox, Group, PasswordInput, Select, Stack, Text, TextInput } from "@mantine/core";
import { PhoneInput } from "../shell/PhoneInput";
import { StateSelect } from "../shell/StateSelect";
import { ClientSection } from "./ClientSection";
import { selectOptions, type ClientForm } from "./client-form";
import type { ClientEditableField } from "./client-record";

const ALTERNATE_FLAG_OPTIONS = selectOptions(ALTERNATE_ADDRESS_FLAGS, (flag) =>
  flag === "" ? "None" : `Flag ${flag}`,
);

export function ClientOverviewTab({ form, hasBluePayKey }: { form: ClientForm; hasBluePayKey: boolean }) {
  const phone = (field: ClientEditableField, label: string) => (
    <PhoneInput
      label={label}
      value={form.values[field]}
      error={form.errors[field]}
      readOnly={form.isReadOnly(field)}
      variant={form.isReadOnly(field) ? "filled" : "default"}
      onChange={(value) => form.set(field, value)}
    />
  );
  const state = (field: ClientEditableField, label: string, required: boolean) => (
    <StateSelect
      label={label}
      withAsterisk={required}
      value={form.values[field]}
      error={form.errors[field]}
      readOnly={form.isReadOnly(field)}
      variant={form.isReadOnly(field) ? "filled" : "default"}
      onChange={(value) => form.set(field, value)}
    />
  );
  const keyReadOnly = form.isReadOnly("bluepay_secret_key");

  return (
    <Stack gap="md">
      <ClientSection title="Client" cols={4}>
        <TextInput label="Client number" inputMode="numeric" {...form.text("client_no")} />
        <TextInput label="Client name" withAsterisk {...form.text("client_name")} />
        <TextInput label="Corporate name" {...form.text("corporate_name")} />
        <TextInput label="Business type" {...form.text("business_type")} />
        <TextInput label="Business form" {...form.text("business_form")} />
        <TextInput label="License" {...form.text("license")} />
        <TextInput label="SIC code" {...form.text("sic_code")} />
      </ClientSection>

      <ClientSection title="Address">
        <TextInput label="Address line 1" withAsterisk {...form.text("address1")} />
        <TextInput label="Address line 2" {...form.text("address2")} />
        <TextInput label="Address line 3" {...form.text("address3")} />
        <TextInput label="City" withAsterisk {...form.text("city")} />
        {state("state", "State", true)}
        <Group grow align="flex-start" gap="sm">
          <TextInput label="ZIP" withAsterisk inputMode="numeric" maxLength={5} {...form.text("zip")} />
          <TextInput label="ZIP+4" inputMode="numeric" maxLength={4} {...form.text("zip4")} />
        </Group>
      </ClientSection>

      <ClientSection title="Contacts" cols={4}>
        <TextInput label="Business owner" {...form.text("business_owner")} />
        <TextInput label="Primary contact" {...form.text("primary_contact")} />
        <TextInput label="Alternate contact" {...form.text("alternate_contact")} />
        <TextInput label="Email" type="email" {...form.text("email")} />
        {phone("bus_phone", "Business phone")}
        {phone("fax_number", "Business cell")}
        {phone("cell_phone", "Primary contact cell")}
        {phone("home_phone", "Alternate contact cell")}
      </ClientSection>

      <ClientSection title="Alternate address" description="Where bills go when the fulfilment says so.">
        <TextInput label="Alternate name" {...form.text("alternate_name")} />
        <TextInput label="Alternate address line 1" {...form.text("alternate_address1")} />
        <TextInput label="Alternate address line 2" {...form.text("alternate_address2")} />
        <TextInput label="Alternate address line 3" {...form.text("alternate_address3")} />
        <TextInput label="Alternate city" {...form.text("alternate_city")} />
        {state("alternate_state", "Alternate state", false)}
        <TextInput label="Alternate ZIP" inputMode="numeric" maxLength={5} {...form.text("alternate_zip")} />
        {phone("alternate_bus_phone", "Alternate business phone")}
        <Select
          label="Alternate address flag"
          data={ALTERNATE_FLAG_OPTIONS}
          allowDeselect={false}
          {...form.select("alternate_address_flag")}
        />
      </ClientSection>

      <ClientSection
        title="Payment gateway"
        description="Card and ACH payments use this account. The secret key is stored encrypted and is never shown."
        cols={2}
      >
        <TextInput label="Gateway account ID" {...form.text("bluepay_account_id")} />
        <Stack gap={6}>
          <PasswordInput
            label={
              <Group gap={8} component="span" wrap="nowrap">
                <span>Secret key</span>
                <Badge
                  size="xs"
                  variant="light"
                  tt="none"
                  color={hasBluePayKey ? "teal" : "gray"}
                  data-testid="bluepay-key-status"
                >
                  {hasBluePayKey ? "A key is set" : "No key set"}
                </Badge>
              </Group>
            }
            aria-label="Secret key"
            placeholder={hasBluePayKey ? "Enter a new key to replace the stored one" : "Enter the key"}
            autoComplete="new-password"
            value={form.values.bluepay_secret_key}
            error={form.errors.bluepay_secret_key}
            readOnly={keyReadOnly}
            variant={keyReadOnly ? "filled" : "default"}
            disabled={form.values.clear_blue_pay_key}
            onChange={(event) => form.set("bluepay_secret_key", event.currentTarget.value)}
          />
          {hasBluePayKey && !keyReadOnly ? (
            <Checkbox
              size="xs"
              label="Remove the stored key when saving (leave the field empty to keep it)"
              checked={form.values.clear_blue_pay_key}
              onChange={(event) => form.set("clear_blue_pay_key", event.currentTarget.checked)}
            />
          ) : (
            <Text size="xs" c="dimmed">
              {keyReadOnly
                ? "Only the provider's administrators change the gateway account."
                : "Needed to take card and ACH payments."}
            </Text>
          )}
        </Stack>
      </ClientSection>
    </Stack>
  );
}
