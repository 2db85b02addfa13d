import { Text } from "@mantine/core";
import { TypeaheadSelect } from "../features/shell/TypeaheadSelect";
import { codeLabel, codeTypeLabel, searchCodes, type CodeMatch } from "./codes";

/** Picks one of the client's bill codes through the code typeahead; codes 0 or below are left out. */
export function CodePicker({
  clientId,
  value,
  onChange,
  error,
  label = "Code",
  showLabel = true,
  placeholder = "Code",
  width,
  showType = false,
}: {
  clientId: number | null;
  value: Pick<CodeMatch, "code" | "description"> | null;
  onChange: (code: CodeMatch | null) => void;
  error?: string;
  label?: string;
  showLabel?: boolean;
  placeholder?: string;
  width?: number;
  /** Shows each option's code type under it. */
  showType?: boolean;
}) {
  return (
    <TypeaheadSelect<CodeMatch>
      label={label}
      showLabel={showLabel}
      width={width}
      placeholder={placeholder}
      disabled={clientId === null}
      selectedLabel={value ? codeLabel(value) : null}
      queryKey={["codes", clientId, "typeahead"]}
      search={async (query, signal) => {
        const page = await searchCodes(clientId, query, signal);
        const results = page.results.filter((code) => code.code > 0);
        return { count: results.length, results };
      }}
      getId={(code) => code.id}
      error={error}
      renderOption={(code) =>
        showType ? (
          <div>
            <Text size="sm">{codeLabel(code)}</Text>
            <Text size="xs" c="dimmed">
              {codeTypeLabel(code.code_type)}
            </Text>
          </div>
        ) : (
          <Text size="sm">{codeLabel(code)}</Text>
        )
      }
      onSelect={onChange}
    />
  );
}
