import { Stack } from "@mantine/core";
import {
  AddressSection,
  BillingSection,
  ContactSection,
  type AutopayOption,
  MessagesSection,
  NameSection,
  type SetCustomerField,
} from "./CustomerFields";
import type { CustomerFieldErrors, CustomerFormValues } from "./customer-form";

/** Customer Details: every field of the customer; the editor's Save Customer button saves them. */
export function CustomerDetailsTab({
  values,
  errors,
  set,
  nameMissing,
  autopay,
}: {
  values: CustomerFormValues;
  errors: CustomerFieldErrors;
  set: SetCustomerField;
  nameMissing?: boolean;
  autopay: AutopayOption;
}) {
  const props = { values, errors, set, nameMissing };
  return (
    <Stack gap="md">
      <NameSection {...props} mode="edit" />
      <ContactSection {...props} />
      <AddressSection {...props} kind="mailing" />
      <AddressSection {...props} kind="property" />
      <BillingSection {...props} autopay={autopay} />
      <MessagesSection {...props} />
    </Stack>
  );
}
