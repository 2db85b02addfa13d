import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  Menu,
  Paper,
  Popover,
  ScrollArea,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from "@mantine/core";
import { useLocalStorage } from "@mantine/hooks";
import { useEffect, useState, type KeyboardEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { describeApiError } from "../../api/api-client";
import { useDownload } from "../../api/download";
import { nextSort, orderingParam, type SortState } from "../../lib/paging";
import { NoClientNotice } from "../clients/ClientRequired";
import { useClientContext } from "../../shared/client-context";
import { LoadingRows } from "../shell/LoadingRows";
import { PageHeader } from "../shell/PageHeader";
import { DownloadIcon, RefreshIcon } from "../shell/icons";
import { SortableTh } from "../shell/SortableTh";
import { TablePager } from "../shell/TablePager";
import { AddCustomerDialog } from "./AddCustomerDialog";
import { ArchiveDialogs, UnarchiveDialog } from "./archive";
import type { CustomerListRow } from "@cyclebill/domain";
import { useCustomerList, type ArchiveFilter, type CustomerSortField } from "./customer-api";
import { CUSTOMER_COLUMNS, DEFAULT_COLUMN_KEYS, type ColumnContext } from "./customer-columns";
import { customerLinks, editorPath, labelsPath } from "./customer-links";

/** Spec section 9: the customer list shows 15 per page and its filter waits 2 s for a pause in typing. */
export const CUSTOMER_PAGE_SIZE = 15;
export const CUSTOMER_FILTER_DEBOUNCE_MS = 2_000;

type Selected = { id: number; customer_no: number; customer_name: string };

export function CustomerListPage() {
  const { clientId } = useClientContext();
  return (
    <Stack gap="md">
      {clientId === null ? (
        <>
          <PageHeader title="Manage Customers" />
          <NoClientNotice what="customers" />
        </>
      ) : (
        // Keyed by client: another client starts with fresh filters and selection.
        <CustomerList key={clientId} clientId={clientId} />
      )}
    </Stack>
  );
}

function CustomerList({ clientId }: { clientId: number }) {
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const { withClient } = useClientContext();
  const [filter, setFilter] = useState("");
  const [query, setQuery] = useState("");
  const [startDate, setStartDate] = useState("");
  const [endDate, setEndDate] = useState("");
  const [archive, setArchive] = useState<ArchiveFilter>("none");
  const [sort, setSort] = useState<SortState<CustomerSortField>>({ field: "customer_no", descending: false });
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Map<number, Selected>>(() => new Map());
  const [archiving, setArchiving] = useState<CustomerListRow | null>(null);
  const [unarchiving, setUnarchiving] = useState<CustomerListRow | null>(null);
  const [columnKeys, setColumnKeys] = useLocalStorage<string[]>({
    key: "cyclebill.customerColumns",
    defaultValue: DEFAULT_COLUMN_KEYS,
  });
  const csv = useDownload();
  const pdf = useDownload();

  // The filter applies 2 s after the last keystroke (Enter applies it at once).
  useEffect(() => {
    const timer = window.setTimeout(() => {
      setQuery(filter.trim());
      setPage(1);
    }, CUSTOMER_FILTER_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [filter]);

  const datesInverted = startDate !== "" && endDate !== "" && startDate > endDate;
  const list = useCustomerList(clientId, {
    limit: CUSTOMER_PAGE_SIZE,
    offset: (page - 1) * CUSTOMER_PAGE_SIZE,
    ordering: orderingParam(sort),
    query,
    startDate: datesInverted ? "" : startDate,
    endDate: datesInverted ? "" : endDate,
    archive,
  });
  const rows = list.data?.results ?? [];
  const total = list.data?.count ?? 0;

  const adding = searchParams.get("mode") === "add";
  const setAdding = (open: boolean) => {
    const next = new URLSearchParams(searchParams);
    if (open) next.set("mode", "add");
    else next.delete("mode");
    setSearchParams(next, { replace: !open });
  };

  const columns = CUSTOMER_COLUMNS.filter((column) => column.fixed || columnKeys.includes(column.key));
  const context: ColumnContext = { editorPath: (row) => withClient(editorPath(row.id)) };

  const onSort = (field: CustomerSortField) => {
    setSort((current) => nextSort(current, field));
    setPage(1);
  };

  const toggleArchiveFilter = (which: Exclude<ArchiveFilter, "none">, on: boolean) => {
    // Archived-only and pending-archive-only exclude each other.
    setArchive(on ? which : "none");
    setPage(1);
  };

  const toggleRow = (row: CustomerListRow, on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      if (on)
        next.set(row.id, { id: row.id, customer_no: row.customer_no, customer_name: row.customer_name });
      else next.delete(row.id);
      return next;
    });
  const pageSelected = rows.filter((row) => selected.has(row.id)).length;
  const togglePage = (on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const row of rows) {
        if (on)
          next.set(row.id, { id: row.id, customer_no: row.customer_no, customer_name: row.customer_name });
        else next.delete(row.id);
      }
      return next;
    });

  // After the last row of a page leaves the list, show the page before.
  const afterRowLeft = () => {
    if (page > 1 && rows.length === 1) setPage(page - 1);
  };

  const onFilterKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    setQuery(filter.trim());
    setPage(1);
  };

  const emptyText =
    archive === "archived"
      ? "No archived customers."
      : archive === "pending"
        ? "No customers are waiting to be archived."
        : query || startDate || endDate
          ? "No customers match these filters."
          : "No customers yet. Add the first one.";

  return (
    <>
      <PageHeader
        title="Manage Customers"
        description="Filter, sort and open customers; archive the ones you no longer bill."
        actions={
          <>
            <Button
              variant="default"
              leftSection={<DownloadIcon />}
              loading={csv.isPending}
              onClick={() =>
                csv.mutate({ path: `/csv/customers/${String(clientId)}`, fallbackName: "Customers.zip" })
              }
            >
              Export CSV
            </Button>
            <Button
              variant="default"
              leftSection={<DownloadIcon />}
              loading={pdf.isPending}
              onClick={() =>
                pdf.mutate({
                  path: `/pdf/customer-mtd-report/${String(clientId)}`,
                  fallbackName: "Customer-Balance-Sheet.pdf",
                })
              }
            >
              Balance Sheet PDF
            </Button>
            <Button component={Link} to={withClient("/customers/processCC")} variant="default">
              Process CC Payments
            </Button>
            <Button onClick={() => setAdding(true)}>Add Customer</Button>
          </>
        }
      />

      <Paper withBorder p="md" radius="sm">
        <Stack gap="sm" mb="sm">
          <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
            <Group align="flex-end" gap="sm" wrap="wrap">
              <TextInput
                label="Filter"
                aria-label="Filter customers"
                placeholder="Name, number, email, address or phone"
                description="Searches when you stop typing, or press Enter"
                w={{ base: "100%", sm: 320 }}
                value={filter}
                onChange={(event) => setFilter(event.currentTarget.value)}
                onKeyDown={onFilterKey}
              />
              <TextInput
                label="Opened from"
                type="date"
                w={160}
                value={startDate}
                max={endDate || undefined}
                onChange={(event) => {
                  setStartDate(event.currentTarget.value);
                  setPage(1);
                }}
              />
              <TextInput
                label="Opened to"
                type="date"
                w={160}
                value={endDate}
                min={startDate || undefined}
                error={datesInverted ? "Must be on or after the start date" : undefined}
                onChange={(event) => {
                  setEndDate(event.currentTarget.value);
                  setPage(1);
                }}
              />
            </Group>
            <Group gap="xs">
              <ColumnChooser keys={columnKeys} onChange={setColumnKeys} />
              <Tooltip label="Refresh">
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label="Refresh customers"
                  loading={list.isFetching}
                  onClick={() => void list.refetch()}
                >
                  <RefreshIcon />
                </ActionIcon>
              </Tooltip>
            </Group>
          </Group>
          <Group gap="lg" justify="space-between" wrap="wrap">
            <Group gap="lg">
              <Switch
                label="Archived only"
                checked={archive === "archived"}
                onChange={(event) => toggleArchiveFilter("archived", event.currentTarget.checked)}
              />
              <Switch
                label="Pending archive only"
                checked={archive === "pending"}
                onChange={(event) => toggleArchiveFilter("pending", event.currentTarget.checked)}
              />
            </Group>
            <SelectionBar
              count={selected.size}
              onClear={() => setSelected(new Map())}
              onPrint={() => void navigate(withClient(labelsPath([...selected.keys()])))}
            />
          </Group>
        </Stack>

        {list.isError ? (
          <Alert color="red" title="The customers could not be loaded">
            {describeApiError(list.error)}
          </Alert>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table
              striped
              highlightOnHover
              verticalSpacing="xs"
              aria-label="Customers"
              aria-busy={list.isFetching}
              style={{ opacity: list.isPlaceholderData ? 0.6 : 1, transition: "opacity 120ms" }}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Select every customer on this page"
                      checked={rows.length > 0 && pageSelected === rows.length}
                      indeterminate={pageSelected > 0 && pageSelected < rows.length}
                      onChange={(event) => togglePage(event.currentTarget.checked)}
                    />
                  </Table.Th>
                  {columns.map((column) =>
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
                  <Table.Th w={56}>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.isPending ? (
                  <LoadingRows columns={columns.length + 2} />
                ) : rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={columns.length + 2}>
                      <Text c="dimmed" ta="center" py="lg">
                        {emptyText}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
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
                          checked={selected.has(row.id)}
                          onChange={(event) => toggleRow(row, event.currentTarget.checked)}
                        />
                      </Table.Td>
                      {columns.map((column) => (
                        <Table.Td key={column.key} ta={column.numeric ? "right" : undefined}>
                          {column.render(row, context)}
                        </Table.Td>
                      ))}
                      <Table.Td>
                        <RowActions
                          row={row}
                          clientId={clientId}
                          withClient={withClient}
                          onArchive={() => setArchiving(row)}
                          onUnarchive={() => setUnarchiving(row)}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <TablePager
          total={total}
          page={page}
          pageSize={CUSTOMER_PAGE_SIZE}
          onPageChange={setPage}
          noun="customers"
        />
      </Paper>

      <AddCustomerDialog clientId={clientId} opened={adding} onClose={() => setAdding(false)} />
      <ArchiveDialogs
        clientId={clientId}
        target={archiving}
        onClose={() => setArchiving(null)}
        onDone={afterRowLeft}
      />
      <UnarchiveDialog
        clientId={clientId}
        target={unarchiving}
        onClose={() => setUnarchiving(null)}
        onDone={afterRowLeft}
      />
    </>
  );
}

function RowActions({
  row,
  clientId,
  withClient,
  onArchive,
  onUnarchive,
}: {
  row: CustomerListRow;
  clientId: number;
  withClient: (to: string) => string;
  onArchive: () => void;
  onUnarchive: () => void;
}) {
  const links = customerLinks(clientId, row.id);
  return (
    <Menu position="bottom-end" shadow="md" width={240} withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${row.customer_name}`}>
          <DotsIcon />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{`${row.customer_no} · ${row.customer_name}`.slice(0, 40)}</Menu.Label>
        <Menu.Item component={Link} to={withClient(editorPath(row.id))}>
          Edit customer
        </Menu.Item>
        <Menu.Item component={Link} to={links.transactions}>
          Transactions
        </Menu.Item>
        <Menu.Item component={Link} to={links.payments}>
          Payments
        </Menu.Item>
        <Menu.Item component={Link} to={links.invoices}>
          Invoices &amp; statements
        </Menu.Item>
        <Menu.Divider />
        {row.deleted ? (
          <Menu.Item color="orange" onClick={onUnarchive}>
            Unarchive…
          </Menu.Item>
        ) : (
          <Menu.Item color="red" onClick={onArchive}>
            {row.delete_flag ? "Change archive flag…" : "Archive…"}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

function SelectionBar({
  count,
  onClear,
  onPrint,
}: {
  count: number;
  onClear: () => void;
  onPrint: () => void;
}) {
  return (
    <Group gap="xs">
      <Text size="sm" c="dimmed" aria-live="polite">
        {count === 0 ? "Select customers to print address labels" : `${count} selected`}
      </Text>
      {count > 0 ? (
        <Button size="compact-sm" variant="subtle" onClick={onClear}>
          Clear
        </Button>
      ) : null}
      <Button size="compact-sm" variant="light" disabled={count === 0} onClick={onPrint}>
        Print Address Labels
      </Button>
    </Group>
  );
}

function ColumnChooser({ keys, onChange }: { keys: string[]; onChange: (keys: string[]) => void }) {
  const optional = CUSTOMER_COLUMNS.filter((column) => !column.fixed);
  return (
    <Popover position="bottom-end" shadow="md" width={260} withinPortal>
      <Popover.Target>
        <Button variant="default">Columns</Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Checkbox.Group
          label="Show columns"
          value={keys}
          onChange={onChange}
          styles={{ label: { marginBottom: 8 } }}
        >
          <ScrollArea.Autosize mah={360} type="auto">
            <Stack gap={8} pr="sm">
              {optional.map((column) => (
                <Checkbox key={column.key} value={column.key} label={column.label} size="xs" />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Checkbox.Group>
        <Button variant="subtle" size="compact-xs" mt="sm" onClick={() => onChange(DEFAULT_COLUMN_KEYS)}>
          Reset to default
        </Button>
      </Popover.Dropdown>
    </Popover>
  );
}

function DotsIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
      <circle cx="5" cy="12" r="2" />
      <circle cx="12" cy="12" r="2" />
      <circle cx="19" cy="12" r="2" />
    </svg>
  );
}
