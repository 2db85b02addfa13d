import { invoiceFileName, statementFileName } from "@cyclebill/domain";
import { Alert, Button, Modal, Paper, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { ApiError, describeApiError } from "../../api/api-client";
import { useDownload } from "../../api/download";
import { formatIsoDate } from "../../lib/format";
import { DEFAULT_PAGE_SIZE, nextSort, pageCount, type SortState } from "../../lib/paging";
import { NoClientNotice } from "../clients/ClientRequired";
import { useClientContext } from "../../shared/client-context";
import { useSelectedCustomer } from "../customers/selected-customer";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { PageHeader } from "../shell/PageHeader";
import { TablePager } from "../shell/TablePager";
import { DocumentFilters, type PickedCustomer } from "./DocumentFilters";
import { DocumentsTable, rowKey } from "./DocumentsTable";
import {
  DEFAULT_DOCUMENT_SORT,
  documentName,
  filterFromParams,
  paramsWithFilter,
  pdfPath,
  useClientDocuments,
  useDeleteInvoice,
  type DocumentFilter,
  type DocumentRow,
  type DocumentSortField,
} from "./documents-api";
import { useCombinePdfs } from "./use-combine-pdfs";
import { HistoryTab } from "../audit/HistoryTab";
import { canReadAudit } from "../audit/audit-api";
import { useUser } from "../auth/user-context";
import { plural } from "../../lib/plural";

export { COMBINE_FAILED_MESSAGE } from "./use-combine-pdfs";

const TITLE = "Invoices & Statements";

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
        <DocumentsScreen key={clientId} clientId={clientId} />
      )}
    </Stack>
  );
}

/**
 * The customer selected in the top bar narrows the list on arrival (unless the address names one)
 * and whenever it changes; clearing it lists every customer again.
 */
function useFollowSelectedCustomer(clientId: number, urlCustomerId: number | null) {
  const [, setParams] = useSearchParams();
  const selectedId = useSelectedCustomer(clientId).customer?.id ?? null;
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
}

function emptyText(filter: DocumentFilter): string {
  const narrowed =
    filter.customerId !== null ||
    filter.startDate !== "" ||
    filter.endDate !== "" ||
    filter.documentType !== "both" ||
    filter.status !== null ||
    filter.balance !== null;
  return narrowed
    ? "No invoices or statements match these filters."
    : "This client has no invoices or statements yet.";
}

function DocumentsScreen({ clientId }: { clientId: number }) {
  const { withClient } = useClientContext();
  const readsHistory = canReadAudit(useUser());
  const [historyOf, setHistoryOf] = useState<DocumentRow | null>(null);
  const [params, setParams] = useSearchParams();
  const filter = filterFromParams(params);
  useFollowSelectedCustomer(clientId, filter.customerId);

  const filterKey = JSON.stringify(filter);
  const [shownKey, setShownKey] = useState(filterKey);
  const [sort, setSort] = useState<SortState<DocumentSortField>>(DEFAULT_DOCUMENT_SORT);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [picked, setPicked] = useState<PickedCustomer | null>(null);
  const [selected, setSelected] = useState<ReadonlyMap<string, DocumentRow>>(new Map());
  const [deleting, setDeleting] = useState<DocumentRow | null>(null);
  if (shownKey !== filterKey) {
    // Other filters: back to the first page (the selection stays, for combining across searches).
    setShownKey(filterKey);
    setPage(1);
  }

  const documents = useClientDocuments(clientId, { filter, sort, page, pageSize });
  const total = documents.data?.count ?? 0;
  const pages = pageCount(total, pageSize);
  if (documents.data && !documents.isPlaceholderData && page > pages) {
    // A delete can empty the last page: show the one before.
    setPage(pages);
  }
  const download = useDownload();
  const deleteInvoice = useDeleteInvoice(clientId);
  const combine = useCombinePdfs(clientId);

  const apply = (next: DocumentFilter) => {
    const nextParams = paramsWithFilter(params, next);
    if (nextParams.toString() === params.toString()) void documents.refetch();
    else setParams(nextParams);
  };

  const select = (rows: DocumentRow[], on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const row of rows) {
        if (on) next.set(rowKey(row), row);
        else next.delete(rowKey(row));
      }
      return next;
    });

  const downloadPdf = (row: DocumentRow) =>
    download.mutate({
      path: pdfPath(row),
      query: { client_id: clientId },
      fallbackName:
        row.document === "invoice"
          ? invoiceFileName(row.invoice_num, row.statement_id)
          : statementFileName(row.invoice_num),
    });

  const confirmDelete = () => {
    if (!deleting) return;
    const target = deleting;
    deleteInvoice.mutate(target.id, {
      onSuccess: () => {
        setDeleting(null);
        select([target], false);
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

  const selection = [...selected.values()];
  const combineButton = (
    <>
      <Button
        variant="default"
        loading={combine.isPending}
        onClick={() =>
          combine.mutate(
            selection.length > 0 ? { kind: "selection", rows: selection } : { kind: "listed", filter, sort },
          )
        }
      >
        {selection.length > 0
          ? `Combine ${String(selection.length)} selected ${plural(selection.length, "PDF")}`
          : "Combine Statement PDFs"}
      </Button>
      {selection.length > 0 ? (
        <Button variant="subtle" onClick={() => setSelected(new Map())}>
          Clear selection
        </Button>
      ) : null}
    </>
  );

  return (
    <>
      <PageHeader
        title={TITLE}
        description="Every invoice and statement of the client with what is still due: download or combine their PDFs, open or delete invoices."
      />

      <Paper withBorder p="md" radius="sm">
        <DocumentFilters
          key={`${String(filter.customerId)}|${filter.startDate}|${filter.endDate}`}
          clientId={clientId}
          filter={filter}
          picked={picked}
          onPick={setPicked}
          onApply={apply}
          searching={documents.isFetching}
          actions={combineButton}
        />
      </Paper>

      <Paper withBorder p="md" radius="sm">
        {documents.error ? (
          <Alert color="red" title="The invoices and statements could not be loaded">
            {describeApiError(documents.error)}
          </Alert>
        ) : (
          <>
            <DocumentsTable
              rows={documents.data?.results ?? []}
              loading={documents.isPending}
              emptyText={emptyText(filter)}
              sort={sort}
              onSort={(field) => {
                setSort((current) => nextSort(current, field));
                setPage(1);
              }}
              selected={selected}
              onSelect={select}
              editPath={(row) => withClient(`/transactions/invoice/edit/${String(row.id)}`)}
              downloadingPath={download.isPending ? download.variables.path : null}
              onDownload={downloadPdf}
              onDelete={setDeleting}
              onHistory={readsHistory ? setHistoryOf : undefined}
              clientId={clientId}
            />
            <TablePager
              total={total}
              page={Math.min(page, pages)}
              pageSize={pageSize}
              onPageChange={setPage}
              onPageSizeChange={(size) => {
                setPageSize(size);
                setPage(1);
              }}
              noun={{ one: "document" }}
            />
          </>
        )}
      </Paper>

      <Modal
        opened={historyOf !== null}
        onClose={() => setHistoryOf(null)}
        title={historyOf ? `History of ${documentName(historyOf)}` : "History"}
        size="80rem"
      >
        {historyOf ? (
          <HistoryTab
            filters={{
              client_id: clientId,
              record_kind: historyOf.document,
              record_id: String(historyOf.id),
            }}
            canRead
          />
        ) : null}
      </Modal>

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
