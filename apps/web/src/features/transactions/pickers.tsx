import { Text } from "@mantine/core";
import { TypeaheadSelect } from "../shell/TypeaheadSelect";
import type { CodeMatch } from "../../shared/codes";
import { searchCustomers, type CustomerMatch } from "./transactions-api";

export type PickedCustomer = { id: number; label: string };
/** A code picked with the shared CodePicker. */
export type PickedCode = CodeMatch;

export const customerText = (customer: Pick<CustomerMatch, "customer_no" | "customer_name">) =>
  `${customer.customer_no} · ${customer.customer_name}`;

type PickerProps<T> = {
  clientId: number | null;
  label: string;
  value: T | null;
  onChange: (value: T | null) => void;
  showLabel?: boolean;
  width?: number;
  error?: string;
};

/** A customer of the client, searched by name or number. */
export function CustomerPicker({
  clientId,
  label,
  value,
  onChange,
  showLabel,
  width,
  error,
}: PickerProps<PickedCustomer>) {
  return (
    <TypeaheadSelect<CustomerMatch>
      label={label}
      showLabel={showLabel}
      error={error}
      width={width ?? 220}
      placeholder="Customer"
      disabled={clientId === null}
      selectedLabel={value?.label ?? null}
      queryKey={["customers", "typeahead", clientId]}
      search={(query, signal) => searchCustomers(clientId, query, signal)}
      getId={(match) => match.id}
      renderOption={(match) => <Text size="sm">{customerText(match)}</Text>}
      onSelect={(match) => onChange(match ? { id: match.id, label: customerText(match) } : null)}
    />
  );
}
