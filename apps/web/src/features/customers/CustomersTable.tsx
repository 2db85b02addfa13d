import { Checkbox, Stack, Table, Text, VisuallyHidden } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import type { CustomerListRow } from "@cyclebill/domain";
import type { SortState } from "../../lib/paging";
import { EmptyRow, LoadingRows } from "../shell/LoadingRows";
import { SortableTh } from "../shell/SortableTh";
import type { CustomerSortField } from "./customer-api";
import type { ColumnContext, CustomerColumn } from "./customer-columns";
import { CustomerRowActions } from "./CustomerRowActions";
import { PageCheckbox } from "../shell/PageCheckbox";

/** On a phone the list shows these columns (the number goes under the name), so nothing scrolls sideways. */
const PHONE_COLUMN_KEYS: readonly string[] = ["customer_name", "balance"];

/** One page of Manage Customers: the chosen columns, a tick box and an actions menu per row. */
export function CustomersTable({
  rows,
  columns,
  context,
  loading,
  fetching,
  placeholder,
  emptyText,
  sort,
  onSort,
  isSelected,
  pageSelected,
  onToggleRow,
  onTogglePage,
  clientId,
  withClient,
  onArchive,
  onUnarchive,
}: {
  rows: CustomerListRow[];
  columns: CustomerColumn[];
  context: ColumnContext;
  loading: boolean;
  fetching: boolean;
  /** The previous page still showing while the next one loads. */
  placeholder: boolean;
  emptyText: string;
  sort: SortState<CustomerSortField>;
  onSort: (field: CustomerSortField) => void;
  isSelected: (id: number) => boolean;
  pageSelected: number;
  onToggleRow: (row: CustomerListRow, on: boolean) => void;
  onTogglePage: (on: boolean) => void;
  clientId: number;
  withClient: (to: string) => string;
  onArchive: (row: CustomerListRow) => void;
  onUnarchive: (row: CustomerListRow) => void;
}) {
  // Below the xs breakpoint (36em, a phone held upright) the chosen columns do not fit.
  const phone = useMediaQuery("(max-width: 36em)") === true;
  const shown = phone ? columns.filter((column) => PHONE_COLUMN_KEYS.includes(column.key)) : columns;
  return (
    <Table.ScrollContainer minWidth={phone ? 0 : 900}>
      <Table
        striped
        highlightOnHover
        verticalSpacing="xs"
        horizontalSpacing={phone ? 6 : "xs"}
        aria-label="Customers"
        aria-busy={fetching}
        style={{ opacity: placeholder ? 0.6 : 1, transition: "opacity 120ms" }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={phone ? 32 : 40}>
              <PageCheckbox
                label="Select every customer on this page"
                selected={pageSelected}
                total={rows.length}
                onChange={onTogglePage}
              />
            </Table.Th>
            {shown.map((column) =>
              column.sort ? (
                <SortableTh
                  key={column.key}
                  field={column.sort}
                  sort={sort}
                  onSort={onSort}
                  align={column.numeric ? "right" : undefined}
                  w={column.width}
                >
                  {column.label}
                </SortableTh>
              ) : (
                <Table.Th
                  key={column.key}
                  ta={column.numeric ? "right" : undefined}
                  w={column.width}
                  // A column given a width may wrap its label ("… since last statement").
                  style={{ whiteSpace: column.width ? "normal" : "nowrap" }}
                >
                  {column.label}
                </Table.Th>
              ),
            )}
            <Table.Th w={phone ? 40 : 56}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading ? (
            <LoadingRows columns={shown.length + 2} />
          ) : rows.length === 0 ? (
            <EmptyRow columns={shown.length + 2} look="roomy">
              {emptyText}
            </EmptyRow>
          ) : (
            rows.map((row) => (
              <Table.Tr
                key={row.id}
                data-archive-state={row.archive_state}
                bg={
                  row.archive_state === "archived"
                    ? "gray.1"
                    : row.archive_state === "active"
                      ? undefined
                      : "yellow.0"
                }
              >
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${row.customer_name}`}
                    checked={isSelected(row.id)}
                    onChange={(event) => onToggleRow(row, event.currentTarget.checked)}
                  />
                </Table.Td>
                {shown.map((column) => (
                  <Table.Td key={column.key} ta={column.numeric ? "right" : undefined}>
                    {phone && column.key === "customer_name" ? (
                      <Stack gap={2}>
                        {column.render(row, context)}
                        <Text size="xs" c="dimmed">
                          No. {row.customer_no}
                        </Text>
                      </Stack>
                    ) : (
                      column.render(row, context)
                    )}
                  </Table.Td>
                ))}
                <Table.Td>
                  <CustomerRowActions
                    row={row}
                    clientId={clientId}
                    withClient={withClient}
                    onArchive={() => onArchive(row)}
                    onUnarchive={() => onUnarchive(row)}
                  />
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
