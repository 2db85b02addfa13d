import { Skeleton, Table } from "@mantine/core";

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
