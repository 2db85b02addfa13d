import { Table, UnstyledButton } from "@mantine/core";
import type { ReactNode } from "react";
import type { SortState } from "../../lib/paging";

export type SortableThProps<F extends string> = {
  field: F;
  sort: SortState<F>;
  onSort: (field: F) => void;
  children: ReactNode;
  align?: "left" | "right" | "center";
  w?: number | string;
};

/** A column header that sorts the table; aria-sort tells assistive technology the current order. */
export function SortableTh<F extends string>({
  field,
  sort,
  onSort,
  children,
  align,
  w,
}: SortableThProps<F>) {
  const active = sort.field === field;
  const arrow = active ? (sort.descending ? "▼" : "▲") : "↕";
  return (
    <Table.Th
      w={w}
      ta={align}
      aria-sort={active ? (sort.descending ? "descending" : "ascending") : "none"}
      style={{ whiteSpace: "nowrap" }}
    >
      <UnstyledButton
        onClick={() => onSort(field)}
        fw={600}
        fz="sm"
        style={{ display: "inline-flex", gap: 6, alignItems: "center" }}
      >
        {children}
        <span aria-hidden style={{ fontSize: 10, opacity: active ? 0.9 : 0.35 }}>
          {arrow}
        </span>
      </UnstyledButton>
    </Table.Th>
  );
}
