import { Alert, Button, Group, Paper, Stack, Switch, TextInput } from "@mantine/core";
import { useLocalStorage } from "@mantine/hooks";
import { useEffect, useState, type KeyboardEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { describeApiError } from "../../api/api-client";
import { useDownload } from "../../api/download";
import { nextSort, orderingParam, type SortState } from "../../lib/paging";
import { NoClientNotice } from "../clients/ClientRequired";
import { useClientContext } from "../../shared/client-context";
import { PageHeader } from "../shell/PageHeader";
import { DownloadIcon } from "../shell/icons";
import { TablePager } from "../shell/TablePager";
import { AddCustomerDialog } from "./AddCustomerDialog";
import { ArchiveDialogs, UnarchiveDialog } from "./archive";
import type { CustomerListRow } from "@cyclebill/domain";
import { useCustomerList, type ArchiveFilter, type CustomerSortField } from "./customer-api";
import { CUSTOMER_COLUMNS, DEFAULT_COLUMN_KEYS, type ColumnContext } from "./customer-columns";
import { editorPath, labelsPath } from "./customer-links";
import { ColumnChooser, SelectionBar } from "./CustomerListControls";
import { CustomersTable } from "./CustomersTable";
import { useCustomerSelection } from "./use-customer-selection";
import { RefreshButton } from "../shell/RefreshButton";

/** Spec section 9: the customer list shows 15 per page and its filter waits 2 s for a pause in typing. */
export const CUSTOMER_PAGE_SIZE = 15;
export const CUSTOMER_FILTER_DEBOUNCE_MS = 2_000;

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
  const { selected, pageSelected, toggleRow, togglePage, clear } = useCustomerSelection(rows);

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

      <Paper withBorder p={{ base: "xs", xs: "md" }} radius="sm">
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
              <RefreshButton
                label="Refresh customers"
                size="lg"
                loading={list.isFetching}
                onClick={() => void list.refetch()}
              />
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
              onClear={clear}
              onPrint={() => void navigate(withClient(labelsPath([...selected.keys()])))}
            />
          </Group>
        </Stack>

        {list.isError ? (
          <Alert color="red" title="The customers could not be loaded">
            {describeApiError(list.error)}
          </Alert>
        ) : (
          <CustomersTable
            rows={rows}
            columns={columns}
            context={context}
            loading={list.isPending}
            fetching={list.isFetching}
            placeholder={list.isPlaceholderData}
            emptyText={emptyText}
            sort={sort}
            onSort={onSort}
            isSelected={(id) => selected.has(id)}
            pageSelected={pageSelected}
            onToggleRow={toggleRow}
            onTogglePage={togglePage}
            clientId={clientId}
            withClient={withClient}
            onArchive={setArchiving}
            onUnarchive={setUnarchiving}
          />
        )}
        <TablePager
          total={total}
          page={page}
          pageSize={CUSTOMER_PAGE_SIZE}
          onPageChange={setPage}
          noun={{ one: "customer" }}
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
