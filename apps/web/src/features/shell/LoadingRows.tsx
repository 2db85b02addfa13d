import { Skeleton, Table, Text } from "@mantine/core";
import type { ReactNode } from "react";

/** Placeholder rows while a table loads. */
export function LoadingRows({ columns, rows = 5 }: { columns: number; rows?: number }) {
  return Array.from({ length: rows }, (_, row) => (
    <Table.Tr key={row}>
      {Array.from({ length: columns }, (_, column) => (
        <Table.Td key={column}>
          <Skeleton h={14} />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}

// How an empty table's message looks: roomy in a page's main list, compact in a tab or panel, plain
// (left-aligned) in a table of results.
const EMPTY_LOOKS = {
  roomy: { ta: "center", py: "lg" },
  compact: { ta: "center", py: "md", size: "sm" },
  plain: { size: "sm" },
} as const;

/** The one row of a table with nothing to list: a dimmed message across its columns. */
export function EmptyRow({
  columns,
  look,
  children,
}: {
  columns: number;
  look: keyof typeof EMPTY_LOOKS;
  children: ReactNode;
}) {
  return (
    <Table.Tr>
      <Table.Td colSpan={columns}>
        <Text c="dimmed" {...EMPTY_LOOKS[look]}>
          {children}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
