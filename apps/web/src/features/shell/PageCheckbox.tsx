import { Checkbox } from "@mantine/core";

/** A table's header checkbox: ticks `selected` of the page's `total` selectable rows all or none, dashed for some. */
export function PageCheckbox(props: {
  label: string;
  selected: number;
  total: number;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  const { selected, total } = props;
  return (
    <Checkbox
      aria-label={props.label}
      checked={total > 0 && selected === total}
      indeterminate={selected > 0 && selected < total}
      disabled={props.disabled}
      onChange={(event) => props.onChange(event.currentTarget.checked)}
    />
  );
}
