import { CODE_TYPE_LABELS } from "@cyclebill/domain";
import { Alert, Button, Group, Paper, Stack, Switch, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { describeApiError } from "../../api/api-client";
import { useDownload } from "../../api/download";
import {
  DEFAULT_PAGE_SIZE,
  nextSort,
  pageCount,
  pageSlice,
  sortRows,
  type SortState,
} from "../../lib/paging";
import { NoClientNotice } from "../clients/ClientRequired";
import { useClientContext } from "../../shared/client-context";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { PageHeader } from "../shell/PageHeader";
import { DownloadIcon } from "../shell/icons";
import { TablePager } from "../shell/TablePager";
import { AddCodeDialog } from "./AddCodeDialog";
import { CodesTable, type CodeSortField } from "./CodesTable";
import { isShownByDefault, useCodes, useDeleteCode, type Code } from "./codes-api";
import { MassEditBar } from "./MassEditBar";
import { useCodeEditing } from "./use-code-editing";
import { useMassEdit } from "./use-mass-edit";
import { RefreshButton } from "../shell/RefreshButton";

export function CodesPage() {
  const { clientId } = useClientContext();
  const download = useDownload();

  return (
    <Stack gap="md">
      {clientId === null ? (
        <>
          <PageHeader title="Bill Codes" />
          <NoClientNotice what="bill codes" />
        </>
      ) : (
        <CodesScreen
          clientId={clientId}
          downloading={download.isPending}
          onReport={() =>
            download.mutate({
              path: "/pdf/code-report/",
              query: { client_id: clientId },
              fallbackName: "Codes Report.pdf",
            })
          }
        />
      )}
    </Stack>
  );
}

function CodesScreen({
  clientId,
  downloading,
  onReport,
}: {
  clientId: number;
  downloading: boolean;
  onReport: () => void;
}) {
  const codes = useCodes(clientId);
  const deleteCode = useDeleteCode(clientId);
  const editor = useCodeEditing(clientId);
  const massEdit = useMassEdit(clientId);
  const { mass } = massEdit;

  const [showSystem, setShowSystem] = useState(false);
  const [filter, setFilter] = useState("");
  // Spec section 9: codes sort by code by default.
  const [sort, setSort] = useState<SortState<CodeSortField>>({ field: "code", descending: false });
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Code | null>(null);

  const all = codes.data?.results ?? [];
  const words = filter.trim().toLowerCase();
  const visible = all.filter(
    (code) =>
      (showSystem || isShownByDefault(code)) &&
      (words === "" ||
        [String(code.code), code.code_name, code.description, CODE_TYPE_LABELS[code.code_type]]
          .join(" ")
          .toLowerCase()
          .includes(words)),
  );
  const sorted = sortRows(visible, sort, (code, field) =>
    field === "code_type" ? CODE_TYPE_LABELS[code.code_type] : code[field],
  );
  const pages = pageCount(sorted.length, pageSize);
  const currentPage = Math.min(page, pages);
  const rows = pageSlice(sorted, currentPage, pageSize);
  const highest = all.reduce((max, code) => Math.max(max, code.code), 0);

  const confirmDelete = () => {
    if (!deleting) return;
    const target = deleting;
    deleteCode.mutate(target.id, {
      onSuccess: () => {
        notifications.show({ color: "teal", message: `Code ${String(target.code)} was deleted.` });
        setDeleting(null);
      },
    });
  };

  const enterMassEdit = () => {
    editor.cancel();
    massEdit.enter();
  };

  return (
    <>
      <PageHeader
        title="Bill Codes"
        description="The charges, payments, adjustments and discounts this client bills with."
        actions={
          <>
            <Button variant="default" leftSection={<DownloadIcon />} loading={downloading} onClick={onReport}>
              Codes Report
            </Button>
            <Button variant="default" onClick={enterMassEdit} disabled={mass !== null || codes.isPending}>
              Mass Edit
            </Button>
            <Button onClick={() => setAdding(true)} disabled={codes.isPending}>
              Add Code
            </Button>
          </>
        }
      />

      <Paper withBorder p="md" radius="sm">
        <Group justify="space-between" mb="sm" gap="sm">
          <Group gap="lg">
            <TextInput
              aria-label="Filter codes"
              placeholder="Filter by number, name, description or type"
              w={{ base: "100%", sm: 340 }}
              value={filter}
              onChange={(event) => {
                setFilter(event.currentTarget.value);
                setPage(1);
              }}
            />
            <Switch
              label="Show system codes"
              checked={showSystem}
              onChange={(event) => {
                setShowSystem(event.currentTarget.checked);
                setPage(1);
              }}
            />
          </Group>
          <RefreshButton
            label="Refresh codes"
            size="lg"
            loading={codes.isFetching}
            onClick={() => void codes.refetch()}
          />
        </Group>

        {mass ? (
          <MassEditBar
            mass={mass}
            saving={massEdit.saving}
            onChange={massEdit.setMass}
            onSave={massEdit.save}
            onClose={massEdit.close}
          />
        ) : null}

        {codes.isError ? (
          <Alert color="red" title="The codes could not be loaded">
            {describeApiError(codes.error)}
          </Alert>
        ) : (
          <CodesTable
            rows={rows}
            loading={codes.isPending}
            emptyText={
              all.length === 0
                ? "No codes yet. Add the first one."
                : words
                  ? `No codes match “${filter.trim()}”.`
                  : "No codes to show."
            }
            sort={sort}
            onSort={(field) => setSort((current) => nextSort(current, field))}
            mass={mass}
            onToggle={massEdit.toggle}
            editor={editor}
            onDelete={setDeleting}
          />
        )}
        <TablePager
          total={sorted.length}
          page={currentPage}
          pageSize={pageSize}
          onPageChange={setPage}
          onPageSizeChange={(size) => {
            setPageSize(size);
            setPage(1);
          }}
          noun={{ one: "code" }}
        />
      </Paper>

      {adding ? (
        <AddCodeDialog clientId={clientId} nextCode={highest + 1} onClose={() => setAdding(false)} />
      ) : null}

      <ConfirmDeleteDialog
        opened={deleting !== null}
        title="Delete code"
        confirmLabel="Delete code"
        loading={deleteCode.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        Delete code <strong>{deleting?.code}</strong>
        {deleting?.description ? ` (${deleting.description})` : ""}? Transactions already posted with it keep
        their amounts.
      </ConfirmDeleteDialog>
    </>
  );
}
