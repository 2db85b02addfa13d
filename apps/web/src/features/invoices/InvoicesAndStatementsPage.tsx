import {
  DOCUMENT_TYPES,
  NO_STATEMENTS_TO_COMBINE_MESSAGE,
  combinedStatementsFileName,
  invoiceFileName,
  statementFileName,
  type DocumentType,
} from "@cyclebill/domain";
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { ApiError, apiDownload, apiFetch, describeApiError } from "../../api/api-client";
import { saveFile, useDownload } from "../../api/download";
import { today } from "../../lib/business-date";
import { formatIsoDate } from "../../lib/format";
import {
  DEFAULT_PAGE_SIZE,
  nextSort,
  pageCount,
  pageSlice,
  sortRows,
  type SortState,
} from "../../lib/paging";
import { NoClientNotice } from "../clients/ClientRequired";
import { parseClientId, useClientContext } from "../../shared/client-context";
import { customerLabel, type CustomerMatch } from "../customers/CustomerSelect";
import { useSelectedCustomer } from "../customers/selected-customer";
import { DeliveryNote } from "./DeliveryNote";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { LoadingRows } from "../shell/LoadingRows";
import { PageHeader } from "../shell/PageHeader";
import { SortableTh } from "../shell/SortableTh";
import { TablePager } from "../shell/TablePager";
import { TypeaheadSelect, type TypeaheadPage } from "../shell/TypeaheadSelect";
import {
  DEFAULT_DOCUMENT_SORT,
  DOCUMENT_TYPE_LABELS,
  STATUS_LABELS,
  documentSortKey,
  isDocumentType,
  useCustomerName,
  useDeleteInvoice,
  useDocuments,
  type DocumentFilter,
  type DocumentRow,
  type DocumentSortField,
} from "./documents-api";

export const SELECT_CUSTOMER_MESSAGE = "Please select a customer before searching.";
export const COMBINE_FAILED_MESSAGE = "Error generating combined PDF";
const DATE_ORDER_MESSAGE = "The start date must be on or before the end date.";

const TITLE = "Invoices & Statements";
const COLUMNS = 7;

type PickedCustomer = { id: number; label: string | null };
type Draft = { customer: PickedCustomer | null; startDate: string; endDate: string };

function isoDateParam(value: string | null): string {
  return value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : "";
}

export function InvoicesAndStatementsPage() {
  const { clientId } = useClientContext();
  return (
    <Stack gap="md">
      {clientId === null ? (
        <>
          <PageHeader title={TITLE} />
          <NoClientNotice what="invoices and statements" />
        </>
      ) : (
        <DocumentsScreen clientId={clientId} />
      )}
    </Stack>
  );
}

function DocumentsScreen({ clientId }: { clientId: number }) {
  const { withClient } = useClientContext();
  // The search that was run lives in the address (customer_id, dates, document type), so a link
  // with customer_id searches at once and reloading keeps the list.
  const [params, setParams] = useSearchParams();
  const urlCustomerId = parseClientId(params.get("customer_id"));
  const urlStart = isoDateParam(params.get("start_date"));
  const urlEnd = isoDateParam(params.get("end_date"));
  const rawType = params.get("document_type");
  const documentType: DocumentType = isDocumentType(rawType) ? rawType : "both";
  const applied: DocumentFilter | null =
    urlCustomerId === null ? null : { customerId: urlCustomerId, startDate: urlStart, endDate: urlEnd };

  const draftFromUrl = (): Draft => ({
    customer: urlCustomerId === null ? null : { id: urlCustomerId, label: null },
    startDate: urlStart,
    endDate: urlEnd,
  });
  // The customer selected in the top bar is searched on arrival (unless the address names one) and
  // whenever it changes; clearing it clears the search.
  const selected = useSelectedCustomer(clientId).customer;
  const selectedId = selected?.id ?? null;
  const followed = useRef<number | null | undefined>(undefined);
  useEffect(() => {
    const first = followed.current === undefined;
    if (followed.current === selectedId) return;
    followed.current = selectedId;
    if (first && (selectedId === null || urlCustomerId !== null)) return;
    if (selectedId === urlCustomerId) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (selectedId === null) next.delete("customer_id");
        else next.set("customer_id", String(selectedId));
        return next;
      },
      { replace: true },
    );
  }, [selectedId, urlCustomerId, setParams]);

  const urlKey = `${String(urlCustomerId)}|${urlStart}|${urlEnd}`;
  const [syncedKey, setSyncedKey] = useState(urlKey);
  const [draft, setDraft] = useState<Draft>(draftFromUrl);
  const [formError, setFormError] = useState<string | null>(null);
  const [sort, setSort] = useState<SortState<DocumentSortField>>(DEFAULT_DOCUMENT_SORT);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [deleting, setDeleting] = useState<DocumentRow | null>(null);
  if (syncedKey !== urlKey) {
    // The address changed (a search, a link, back/forward): the form follows it.
    setSyncedKey(urlKey);
    const next = draftFromUrl();
    // The customer just picked keeps its label.
    setDraft((current) =>
      current.customer?.id === urlCustomerId ? { ...next, customer: current.customer } : next,
    );
    setFormError(null);
    setPage(1);
  }

  const documents = useDocuments(clientId, applied);
  const download = useDownload();
  const deleteInvoice = useDeleteInvoice(clientId);
  const combine = useMutation({
    mutationFn: (statementIds: number[]) =>
      apiDownload("/statements/combine/", {
        method: "POST",
        body: { client_id: clientId, statement_ids: statementIds },
        query: { client_id: clientId },
        // This screen reports the failures itself (a 401 still ends the session).
        handles: "all",
        fallbackName: combinedStatementsFileName(today()),
      }),
    onSuccess: (file) => saveFile(file.blob, file.filename),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) return;
      const detail = describeApiError(error);
      if (detail === NO_STATEMENTS_TO_COMBINE_MESSAGE) {
        notifications.show({ color: "yellow", message: NO_STATEMENTS_TO_COMBINE_MESSAGE });
        return;
      }
      notifications.show({ color: "red", title: COMBINE_FAILED_MESSAGE, message: detail, autoClose: 8_000 });
    },
  });

  // The label of a customer that came from the address.
  const needsName = draft.customer !== null && draft.customer.label === null ? draft.customer.id : null;
  const named = useCustomerName(clientId, needsName);
  const customerText =
    draft.customer === null
      ? null
      : (draft.customer.label ??
        (named.data
          ? customerLabel(named.data)
          : named.isError
            ? `Customer #${String(draft.customer.id)}`
            : ""));

  const allRows = documents.rows ?? [];
  const listed = allRows.filter(
    (row) =>
      documentType === "both" ||
      (documentType === "invoices" ? row.kind === "invoice" : row.kind === "statement"),
  );
  const sorted = sortRows(listed, sort, documentSortKey);
  const pages = pageCount(sorted.length, pageSize);
  const currentPage = Math.min(page, pages);
  const rows = pageSlice(sorted, currentPage, pageSize);
  // Combined in the order the list shows them.
  const listedStatementIds = sorted.filter((row) => row.kind === "statement").map((row) => row.id);

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (draft.customer === null) {
      setFormError(SELECT_CUSTOMER_MESSAGE);
      return;
    }
    if (draft.startDate && draft.endDate && draft.startDate > draft.endDate) {
      setFormError(DATE_ORDER_MESSAGE);
      return;
    }
    setFormError(null);
    setPage(1);
    const next = new URLSearchParams(params);
    next.set("customer_id", String(draft.customer.id));
    for (const [key, value] of [
      ["start_date", draft.startDate],
      ["end_date", draft.endDate],
    ] as const) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (next.toString() === params.toString()) void documents.refetch();
    else setParams(next);
  };

  const changeDocumentType = (value: string) => {
    if (!isDocumentType(value)) return;
    setPage(1);
    const next = new URLSearchParams(params);
    if (value === "both") next.delete("document_type");
    else next.set("document_type", value);
    setParams(next, { replace: true });
  };

  const combineStatements = () => {
    if (listedStatementIds.length === 0) {
      notifications.show({ color: "yellow", message: NO_STATEMENTS_TO_COMBINE_MESSAGE });
      return;
    }
    combine.mutate(listedStatementIds);
  };

  const downloadPdf = (row: DocumentRow) =>
    download.mutate({
      path:
        row.kind === "invoice" ? `/invoices/${String(row.id)}/pdf/` : `/statements/${String(row.id)}/pdf/`,
      query: { client_id: clientId },
      fallbackName:
        row.kind === "invoice" ? invoiceFileName(row.invoice_num, null) : statementFileName(row.invoice_num),
    });
  const downloadingPath = download.isPending ? download.variables.path : null;

  const confirmDelete = () => {
    if (!deleting) return;
    const target = deleting;
    deleteInvoice.mutate(target.id, {
      onSuccess: () => {
        setDeleting(null);
        notifications.show({ color: "teal", message: `Invoice ${String(target.invoice_num)} was deleted.` });
      },
      onError: (error) => {
        setDeleting(null);
        // Errors the app-wide handler reports (server errors, the session ending) are not repeated.
        if (error instanceof ApiError && !error.handledByCaller) return;
        notifications.show({
          color: "red",
          title: `Invoice ${String(target.invoice_num)} was not deleted`,
          message: describeApiError(error),
          autoClose: 10_000,
        });
      },
    });
  };

  const onSort = (field: DocumentSortField) => {
    setSort((current) => nextSort(current, field));
    setPage(1);
  };

  const searchCustomers = (query: string, signal: AbortSignal) =>
    apiFetch<TypeaheadPage<CustomerMatch>>("/typeahead/customers/", {
      query: { client_id: clientId, query },
      signal,
    });

  return (
    <>
      <PageHeader
        title={TITLE}
        description="A customer's invoices and statements: download their PDFs, open or delete invoices."
      />

      <Paper withBorder p="md" radius="sm">
        <form onSubmit={search} noValidate aria-label="Search invoices and statements">
          <Group align="flex-end" gap="md" wrap="wrap">
            <div style={{ width: 320, maxWidth: "100%" }}>
              <TypeaheadSelect<CustomerMatch>
                label="Customer"
                showLabel
                placeholder="Search customers by name or number"
                selectedLabel={customerText}
                queryKey={["customers", "typeahead", clientId]}
                search={searchCustomers}
                getId={(match) => match.id}
                renderOption={(match) => <Text size="sm">{customerLabel(match)}</Text>}
                onSelect={(match) => {
                  setFormError(null);
                  setDraft((current) => ({
                    ...current,
                    customer: match ? { id: match.id, label: customerLabel(match) } : null,
                  }));
                }}
              />
            </div>
            <TextInput
              type="date"
              label="Start date"
              w={160}
              value={draft.startDate}
              max={draft.endDate || undefined}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setDraft((current) => ({ ...current, startDate: value }));
              }}
            />
            <TextInput
              type="date"
              label="End date"
              w={160}
              value={draft.endDate}
              min={draft.startDate || undefined}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setDraft((current) => ({ ...current, endDate: value }));
              }}
            />
            <Stack gap={4} role="group" aria-labelledby="document-type-label">
              <Text size="sm" fw={500} id="document-type-label">
                Document type
              </Text>
              <SegmentedControl
                aria-labelledby="document-type-label"
                value={documentType}
                onChange={changeDocumentType}
                data={DOCUMENT_TYPES.map((type) => ({ value: type, label: DOCUMENT_TYPE_LABELS[type] }))}
              />
            </Stack>
            <Group gap="sm">
              <Button type="submit" loading={applied !== null && documents.isFetching}>
                Search
              </Button>
              <Button variant="default" onClick={combineStatements} loading={combine.isPending}>
                Combine Statement PDFs
              </Button>
            </Group>
          </Group>
          {formError ? (
            <Alert color="red" variant="light" mt="sm" py="xs">
              {formError}
            </Alert>
          ) : null}
        </form>
      </Paper>

      <Paper withBorder p="md" radius="sm">
        {documents.error ? (
          <Alert color="red" title="The invoices and statements could not be loaded">
            {describeApiError(documents.error)}
          </Alert>
        ) : (
          <>
            {documents.truncated ? (
              <Alert color="yellow" mb="sm">
                Only the first documents of this customer are listed; narrow the dates to see the rest.
              </Alert>
            ) : null}
            <Table.ScrollContainer minWidth={860}>
              <Table verticalSpacing="xs" highlightOnHover aria-label="Invoices and statements">
                <Table.Thead>
                  <Table.Tr>
                    <SortableTh field="statement_date" sort={sort} onSort={onSort} w={120}>
                      Document
                    </SortableTh>
                    <SortableTh field="invoice_num" sort={sort} onSort={onSort} w={110}>
                      Number
                    </SortableTh>
                    <SortableTh field="customer_id" sort={sort} onSort={onSort}>
                      Customer
                    </SortableTh>
                    <SortableTh field="invoice_date" sort={sort} onSort={onSort} w={140}>
                      Date
                    </SortableTh>
                    <SortableTh field="created" sort={sort} onSort={onSort} w={140}>
                      Created
                    </SortableTh>
                    <SortableTh field="invoice_status" sort={sort} onSort={onSort} w={110}>
                      Status
                    </SortableTh>
                    <Table.Th w={210}>Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {applied !== null && documents.isLoading ? (
                    <LoadingRows columns={COLUMNS} />
                  ) : rows.length === 0 ? (
                    <Table.Tr>
                      <Table.Td colSpan={COLUMNS}>
                        <Text c="dimmed" ta="center" py="lg">
                          {applied === null
                            ? "Choose a customer and press Search."
                            : allRows.length === 0
                              ? "This customer has no invoices or statements in these dates."
                              : `This customer has no ${documentType} in these dates.`}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ) : (
                    rows.map((row) => (
                      <DocumentTableRow
                        key={row.key}
                        row={row}
                        editPath={withClient(`/transactions/invoice/edit/${String(row.id)}`)}
                        downloading={
                          downloadingPath ===
                          (row.kind === "invoice"
                            ? `/invoices/${String(row.id)}/pdf/`
                            : `/statements/${String(row.id)}/pdf/`)
                        }
                        onDownload={() => downloadPdf(row)}
                        onDelete={() => setDeleting(row)}
                      />
                    ))
                  )}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <TablePager
              total={sorted.length}
              page={currentPage}
              pageSize={pageSize}
              onPageChange={setPage}
              onPageSizeChange={(size) => {
                setPageSize(size);
                setPage(1);
              }}
              noun="documents"
            />
          </>
        )}
      </Paper>

      <ConfirmDeleteDialog
        opened={deleting !== null}
        title="Delete invoice"
        loading={deleteInvoice.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        {deleting ? (
          <>
            Delete invoice {deleting.invoice_num} of {deleting.customer_no} · {deleting.customer_name}, dated{" "}
            {formatIsoDate(deleting.invoice_date)}? Its transactions stay in the ledger and can be invoiced
            again.
          </>
        ) : null}
      </ConfirmDeleteDialog>
    </>
  );
}

const STATUS_COLORS = { open: "blue", closed: "gray", processed: "teal" } as const;

function DocumentTableRow({
  row,
  editPath,
  downloading,
  onDownload,
  onDelete,
}: {
  row: DocumentRow;
  editPath: string;
  downloading: boolean;
  onDownload: () => void;
  onDelete: () => void;
}) {
  const name = `${row.kind} ${String(row.invoice_num)}`;
  const editable = row.actions.includes("edit");
  return (
    <Table.Tr>
      <Table.Td>
        <Badge variant="light" color={row.kind === "invoice" ? "indigo" : "grape"} radius="sm">
          {row.statement_date}
        </Badge>
      </Table.Td>
      <Table.Td>{row.invoice_num}</Table.Td>
      <Table.Td>
        <Text size="sm" truncate="end" maw={320}>
          {row.customer_no} · {row.customer_name}
        </Text>
      </Table.Td>
      <Table.Td>{formatIsoDate(row.invoice_date)}</Table.Td>
      <Table.Td>{formatIsoDate(row.created)}</Table.Td>
      <Table.Td>
        <Badge variant="dot" color={STATUS_COLORS[row.invoice_status]}>
          {STATUS_LABELS[row.invoice_status]}
        </Badge>
        <DeliveryNote row={row} />
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          {/* The server offers an invoice's PDF once it is no longer open (spec). */}
          {!row.actions.includes("pdf") ? null : (
            <Button
              size="compact-sm"
              variant="default"
              loading={downloading}
              onClick={onDownload}
              aria-label={`Download ${name} PDF`}
            >
              PDF
            </Button>
          )}
          {row.kind === "invoice" ? (
            <>
              <Button
                component={Link}
                to={editPath}
                size="compact-sm"
                variant="subtle"
                w={52}
                aria-label={`${editable ? "Edit" : "View"} ${name}`}
              >
                {editable ? "Edit" : "View"}
              </Button>
              {row.actions.includes("delete") ? (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  onClick={onDelete}
                  aria-label={`Delete ${name}`}
                >
                  Delete
                </Button>
              ) : null}
            </>
          ) : null}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
