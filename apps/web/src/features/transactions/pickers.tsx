import { Text } from "@mantine/core";
import { TypeaheadSelect } from "../shell/TypeaheadSelect";
import { searchCodes, searchCustomers, type CodeMatch, type CustomerMatch } from "./transactions-api";

export type PickedCustomer = { id: number; label: string };
export type PickedCode = { id: number; label: string; description: string; code_type: string };

export const customerText = (customer: Pick<CustomerMatch, "customer_no" | "customer_name">) =>
  `${customer.customer_no} · ${customer.customer_name}`;
export const codeText = (code: Pick<CodeMatch, "code" | "description">) =>
  `${code.code} · ${code.description}`;

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

/** A bill code of the client; codes 0 or below are left out (spec section 9). */
export function CodePicker({
  clientId,
  label,
  value,
  onChange,
  showLabel,
  width,
  error,
}: PickerProps<PickedCode>) {
  return (
    <TypeaheadSelect<CodeMatch>
      label={label}
      showLabel={showLabel}
      error={error}
      width={width ?? 180}
      placeholder="Code"
      disabled={clientId === null}
      selectedLabel={value?.label ?? null}
      queryKey={["codes", "typeahead", clientId]}
      search={async (query, signal) => {
        const page = await searchCodes(clientId, query, signal);
        const results = page.results.filter((code) => code.code > 0);
        return { count: results.length, results };
      }}
      getId={(match) => match.id}
      renderOption={(match) => <Text size="sm">{codeText(match)}</Text>}
      onSelect={(match) =>
        onChange(
          match
            ? {
                id: match.id,
                label: codeText(match),
                description: match.description,
                code_type: match.code_type,
              }
            : null,
        )
      }
    />
  );
}
