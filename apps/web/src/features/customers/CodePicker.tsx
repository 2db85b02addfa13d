import { Text } from "@mantine/core";
import { TypeaheadSelect } from "../shell/TypeaheadSelect";
import type { PickedCode } from "./charge-drafts";
import { codeLabel, searchCodes, type CodeOption } from "./customer-children-api";

/** Picks one of the client's bill codes (above 0) through the code typeahead. */
export function CodePicker({
  clientId,
  value,
  onChange,
  error,
  label = "Code",
  showLabel = true,
  width,
}: {
  clientId: number;
  value: PickedCode | null;
  onChange: (code: CodeOption | null) => void;
  error?: string;
  label?: string;
  showLabel?: boolean;
  width?: number;
}) {
  return (
    <TypeaheadSelect<CodeOption>
      label={label}
      showLabel={showLabel}
      width={width}
      placeholder="Search codes"
      selectedLabel={value ? codeLabel(value) : null}
      queryKey={["codes", clientId, "typeahead"]}
      search={(query, signal) => searchCodes(clientId, query, signal)}
      getId={(code) => code.id}
      error={error}
      renderOption={(code) => (
        <div>
          <Text size="sm">{codeLabel(code)}</Text>
          <Text size="xs" c="dimmed" tt="capitalize">
            {code.code_type.replace(/_/g, " ")}
          </Text>
        </div>
      )}
      onSelect={onChange}
    />
  );
}
