import { US_STATES } from "@cyclebill/domain";
import { Select, type SelectProps } from "@mantine/core";

const STATE_OPTIONS = US_STATES.map((state) => ({
  value: state.abbreviation,
  label: `${state.abbreviation} · ${state.name}`,
}));

export type StateSelectProps = Omit<SelectProps, "data" | "value" | "onChange"> & {
  value: string;
  onChange: (value: string) => void;
};

/** The spec's 59 US states and territories; type to search by name or abbreviation. */
export function StateSelect({ value, onChange, ...props }: StateSelectProps) {
  return (
    <Select
      searchable
      clearable
      placeholder="Select a state"
      nothingFoundMessage="No matching state"
      {...props}
      data={STATE_OPTIONS}
      value={value === "" ? null : value}
      onChange={(next) => onChange(next ?? "")}
    />
  );
}
