import { Combobox, Group, Text, TextInput, useCombobox } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

// Spec section 9: typeahead results are capped at 100 and the filter is debounced by 200 ms.
export const TYPEAHEAD_MAX_RESULTS = 100;
export const TYPEAHEAD_DEBOUNCE_MS = 200;

export type TypeaheadPage<T> = { count: number; results: T[] };

export type TypeaheadSelectProps<T> = {
  /** Accessible name of the input. */
  label: string;
  /** Short caption shown before the input (the top bar's style); omit in forms. */
  caption?: string;
  /** Shows `label` above the input, as form fields do, instead of only naming it for assistive tech. */
  showLabel?: boolean;
  /** A validation message under the input. */
  error?: string;
  placeholder: string;
  /** Text shown in the input while the user is not typing; null when nothing is selected. */
  selectedLabel: string | null;
  /** Cache key prefix; the search text is appended. */
  queryKey: readonly unknown[];
  search: (query: string, signal: AbortSignal) => Promise<TypeaheadPage<T>>;
  getId: (item: T) => number;
  renderOption: (item: T) => ReactNode;
  onSelect: (item: T | null) => void;
  disabled?: boolean;
  width?: number;
};

/** A searchable select over a server-side typeahead: type to filter, pick an option, clear with ×. */
export function TypeaheadSelect<T>(props: TypeaheadSelectProps<T>) {
  const { label, placeholder, selectedLabel, queryKey, search, getId, renderOption, onSelect, disabled } =
    props;
  // What the user typed since focusing; null shows the current selection instead.
  const [typed, setTyped] = useState<string | null>(null);
  const [query] = useDebouncedValue((typed ?? "").trim(), TYPEAHEAD_DEBOUNCE_MS);
  const combobox = useCombobox({
    onDropdownClose: () => {
      combobox.resetSelectedOption();
      setTyped(null);
    },
  });

  const results = useQuery({
    queryKey: [...queryKey, query],
    queryFn: ({ signal }) => search(query, signal),
    enabled: combobox.dropdownOpened && !disabled,
  });
  const items = (results.data?.results ?? []).slice(0, TYPEAHEAD_MAX_RESULTS);
  const total = results.data?.count ?? items.length;

  const choose = (value: string) => {
    const item = items.find((candidate) => String(getId(candidate)) === value);
    if (item !== undefined) onSelect(item);
    combobox.closeDropdown();
  };

  let content: ReactNode;
  if (results.isPending) content = <Combobox.Empty>Loading results...</Combobox.Empty>;
  else if (results.isError) content = <Combobox.Empty>Could not load results</Combobox.Empty>;
  else if (items.length === 0) content = <Combobox.Empty>No matches found</Combobox.Empty>;
  else
    content = items.map((item) => (
      <Combobox.Option value={String(getId(item))} key={getId(item)}>
        {renderOption(item)}
      </Combobox.Option>
    ));

  return (
    <Group
      gap="xs"
      wrap="nowrap"
      miw={0}
      w={props.showLabel ? "100%" : undefined}
      align={props.showLabel ? "flex-start" : "center"}
    >
      {props.caption ? (
        <Text size="sm" fw={500} c="dimmed" component="span" aria-hidden visibleFrom="sm">
          {props.caption}
        </Text>
      ) : null}
      <Combobox store={combobox} onOptionSubmit={choose} withinPortal>
        <Combobox.Target>
          <TextInput
            label={props.showLabel ? label : undefined}
            aria-label={props.showLabel ? undefined : label}
            error={props.error}
            placeholder={placeholder}
            value={typed ?? selectedLabel ?? ""}
            disabled={disabled}
            // Full width of what is left on a phone; the fixed width from the small breakpoint up.
            w={props.showLabel ? "100%" : { base: "100%", sm: props.width }}
            onChange={(event) => {
              setTyped(event.currentTarget.value);
              combobox.openDropdown();
              combobox.updateSelectedOptionIndex();
            }}
            onFocus={(event) => {
              // Selecting the current text lets typing replace it at once.
              event.currentTarget.select();
              combobox.openDropdown();
            }}
            onClick={() => combobox.openDropdown()}
            onBlur={() => combobox.closeDropdown()}
            rightSection={
              selectedLabel !== null && !disabled ? (
                <Combobox.ClearButton aria-label={`Clear ${label}`} onClear={() => onSelect(null)} />
              ) : (
                <Combobox.Chevron />
              )
            }
            rightSectionPointerEvents={selectedLabel !== null && !disabled ? "all" : "none"}
          />
        </Combobox.Target>
        <Combobox.Dropdown>
          <Combobox.Options mah={340} style={{ overflowY: "auto" }}>
            {content}
          </Combobox.Options>
          {!results.isPending && total > items.length ? (
            <Combobox.Footer>
              <Text size="xs" c="dimmed">
                Showing the first {items.length} of {total}; keep typing to narrow the list.
              </Text>
            </Combobox.Footer>
          ) : null}
        </Combobox.Dropdown>
      </Combobox>
    </Group>
  );
}
