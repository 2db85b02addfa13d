import { CODE_TYPE_LABELS, DESCRIPTION_MAX_LENGTH, type CodeType } from "@cyclebill/domain";
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Tooltip,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useEffect, useState, type KeyboardEvent } from "react";
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
import type { FieldErrors } from "../auth/form-validation";
import { NoClientNotice } from "../clients/ClientRequired";
import { useClientContext } from "../../shared/client-context";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { EditDeleteButtons } from "../shell/EditDeleteButtons";
import { LoadingRows } from "../shell/LoadingRows";
import { PageHeader } from "../shell/PageHeader";
import { DownloadIcon, RefreshIcon } from "../shell/icons";
import { SortableTh } from "../shell/SortableTh";
import { TablePager } from "../shell/TablePager";
import { AddCodeDialog, CODE_TYPE_OPTIONS } from "./AddCodeDialog";
import { announceCodeSaveFailed, announceCodeSaved } from "./code-messages";
import { draftOf, isCodeType, saveErrors, validateDraft, type CodeDraft, type CodeField } from "./code-draft";
import {
  isShownByDefault,
  isSystemCode,
  useCodes,
  useDeleteCode,
  useMassUpdateCodes,
  useSaveCode,
  type Code,
} from "./codes-api";

type CodeSortField = "code" | "code_name" | "description" | "code_type" | "taxable";

/** Spec section 9: a description of 30 characters or more gets a tooltip. */
export const DESCRIPTION_TOOLTIP_LENGTH = 30;
/** How long a saved row stays marked as saved. */
const SAVED_MARK_MS = 2_500;

type Editing = { id: number; draft: CodeDraft; errors: FieldErrors<CodeField> };
type TaxableChoice = "keep" | "yes" | "no";
type MassEdit = { selected: ReadonlySet<number>; codeType: CodeType | ""; taxable: TaxableChoice };

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
  const saveCode = useSaveCode(clientId);
  const deleteCode = useDeleteCode(clientId);
  const massUpdate = useMassUpdateCodes(clientId);

  const [showSystem, setShowSystem] = useState(false);
  const [filter, setFilter] = useState("");
  // Spec section 9: codes sort by code by default.
  const [sort, setSort] = useState<SortState<CodeSortField>>({ field: "code", descending: false });
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [savedId, setSavedId] = useState<number | null>(null);
  const [mass, setMass] = useState<MassEdit | null>(null);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Code | null>(null);

  useEffect(() => {
    if (savedId === null) return;
    const timer = window.setTimeout(() => setSavedId(null), SAVED_MARK_MS);
    return () => window.clearTimeout(timer);
  }, [savedId]);

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

  const startEditing = (code: Code) => setEditing({ id: code.id, draft: draftOf(code), errors: {} });
  const cancelEditing = () => setEditing(null);

  const changeDraft = <K extends CodeField>(field: K, value: CodeDraft[K]) =>
    setEditing((current) =>
      current
        ? {
            ...current,
            draft: { ...current.draft, [field]: value },
            errors: { ...current.errors, [field]: undefined },
          }
        : current,
    );

  const saveEditing = () => {
    if (!editing) return;
    const result = validateDraft(editing.draft);
    if (!result.ok) {
      // A failed save stays in editing.
      setEditing({ ...editing, errors: result.errors });
      announceCodeSaveFailed();
      return;
    }
    saveCode.mutate(
      { id: editing.id, body: result.data },
      {
        onSuccess: (saved) => {
          setEditing(null);
          setSavedId(saved.id);
          announceCodeSaved();
        },
        onError: (error) => {
          const refused = saveErrors(error);
          setEditing((current) => (current ? { ...current, errors: refused.errors } : current));
          announceCodeSaveFailed(refused.detail);
        },
      },
    );
  };

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
    setEditing(null);
    setMass({ selected: new Set(), codeType: "", taxable: "keep" });
  };

  const toggleSelected = (ids: number[], on: boolean) =>
    setMass((current) => {
      if (!current) return current;
      const selected = new Set(current.selected);
      for (const id of ids) {
        if (on) selected.add(id);
        else selected.delete(id);
      }
      return { ...current, selected };
    });

  const saveMassEdit = () => {
    if (!mass || mass.selected.size === 0) return;
    massUpdate.mutate(
      {
        ids: [...mass.selected],
        // An empty code_type is ignored by the server.
        code_type: mass.codeType,
        taxable: mass.taxable === "keep" ? undefined : mass.taxable === "yes",
      },
      {
        onSuccess: (result) => {
          notifications.show({
            color: "teal",
            message: `Saved changes to ${String(result.count)} ${result.count === 1 ? "code" : "codes"}.`,
          });
          setMass({ selected: new Set(), codeType: "", taxable: "keep" });
        },
      },
    );
  };

  const editableOnPage = rows.filter((code) => !isSystemCode(code)).map((code) => code.id);
  const selectedOnPage = editableOnPage.filter((id) => mass?.selected.has(id)).length;
  const columns = mass ? 7 : 6;

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
          <Tooltip label="Refresh">
            <ActionIcon
              variant="default"
              size="lg"
              aria-label="Refresh codes"
              loading={codes.isFetching}
              onClick={() => void codes.refetch()}
            >
              <RefreshIcon />
            </ActionIcon>
          </Tooltip>
        </Group>

        {mass ? (
          <MassEditBar
            mass={mass}
            saving={massUpdate.isPending}
            onChange={setMass}
            onSave={saveMassEdit}
            onClose={() => setMass(null)}
          />
        ) : null}

        {codes.isError ? (
          <Alert color="red" title="The codes could not be loaded">
            {describeApiError(codes.error)}
          </Alert>
        ) : (
          <Table.ScrollContainer minWidth={860}>
            <Table
              verticalSpacing="xs"
              highlightOnHover
              aria-label="Bill codes"
              style={{ tableLayout: "fixed" }}
            >
              <Table.Thead>
                <Table.Tr>
                  {mass ? (
                    <Table.Th w={44}>
                      <Checkbox
                        aria-label="Select every code on this page"
                        checked={editableOnPage.length > 0 && selectedOnPage === editableOnPage.length}
                        indeterminate={selectedOnPage > 0 && selectedOnPage < editableOnPage.length}
                        onChange={(event) => toggleSelected(editableOnPage, event.currentTarget.checked)}
                      />
                    </Table.Th>
                  ) : null}
                  <SortableTh field="code" sort={sort} onSort={(f) => setSort((s) => nextSort(s, f))} w={110}>
                    Code
                  </SortableTh>
                  <SortableTh
                    field="code_name"
                    sort={sort}
                    onSort={(f) => setSort((s) => nextSort(s, f))}
                    w="18%"
                  >
                    Name
                  </SortableTh>
                  <SortableTh field="description" sort={sort} onSort={(f) => setSort((s) => nextSort(s, f))}>
                    Description
                  </SortableTh>
                  <SortableTh
                    field="code_type"
                    sort={sort}
                    onSort={(f) => setSort((s) => nextSort(s, f))}
                    w={190}
                  >
                    Type
                  </SortableTh>
                  <SortableTh
                    field="taxable"
                    sort={sort}
                    onSort={(f) => setSort((s) => nextSort(s, f))}
                    w={100}
                  >
                    Taxable
                  </SortableTh>
                  <Table.Th w={160} ta="right">
                    Actions
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {codes.isPending ? (
                  <LoadingRows columns={columns} />
                ) : rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={columns}>
                      <Text c="dimmed" ta="center" py="lg">
                        {all.length === 0
                          ? "No codes yet. Add the first one."
                          : words
                            ? `No codes match “${filter.trim()}”.`
                            : "No codes to show."}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  rows.map((code) =>
                    editing?.id === code.id ? (
                      <EditingRow
                        key={code.id}
                        editing={editing}
                        saving={saveCode.isPending}
                        onChange={changeDraft}
                        onSave={saveEditing}
                        onCancel={cancelEditing}
                      />
                    ) : (
                      <ViewingRow
                        key={code.id}
                        code={code}
                        saved={savedId === code.id}
                        mass={mass}
                        busy={editing !== null}
                        onSelect={(on) => toggleSelected([code.id], on)}
                        onEdit={() => startEditing(code)}
                        onDelete={() => setDeleting(code)}
                      />
                    ),
                  )
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
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
          noun="codes"
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

function ViewingRow({
  code,
  saved,
  mass,
  busy,
  onSelect,
  onEdit,
  onDelete,
}: {
  code: Code;
  saved: boolean;
  mass: MassEdit | null;
  busy: boolean;
  onSelect: (on: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const system = isSystemCode(code);
  const selected = mass?.selected.has(code.id) ?? false;
  return (
    <Table.Tr
      bg={saved ? "var(--mantine-color-teal-0)" : selected ? "var(--mantine-color-teal-light)" : undefined}
      data-state={saved ? "saved" : "viewing"}
    >
      {mass ? (
        <Table.Td>
          <Checkbox
            aria-label={`Select code ${String(code.code)}`}
            disabled={system}
            checked={selected}
            onChange={(event) => onSelect(event.currentTarget.checked)}
          />
        </Table.Td>
      ) : null}
      <Table.Td fw={600} style={{ fontVariantNumeric: "tabular-nums" }}>
        {code.code}
      </Table.Td>
      <Table.Td>
        <Text size="sm" truncate="end">
          {code.code_name || (
            <Text span c="dimmed">
              —
            </Text>
          )}
        </Text>
      </Table.Td>
      <Table.Td>
        <Description text={code.description} />
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={TYPE_COLORS[code.code_type]} tt="none" fw={500}>
          {CODE_TYPE_LABELS[code.code_type]}
        </Badge>
      </Table.Td>
      <Table.Td>{code.taxable ? "Yes" : "No"}</Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {saved ? (
            <Badge color="teal" variant="light" tt="none">
              Saved
            </Badge>
          ) : null}
          {system ? (
            <Tooltip label="System codes cannot be changed or deleted">
              <Badge color="gray" variant="outline" tt="none">
                System
              </Badge>
            </Tooltip>
          ) : mass ? null : (
            <>
              <EditDeleteButtons
                subject={`code ${String(code.code)}`}
                disabled={busy}
                onEdit={onEdit}
                onDelete={onDelete}
              />
            </>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

const TYPE_COLORS: Record<CodeType, string> = {
  info: "gray",
  charge: "blue",
  payment: "teal",
  adjust: "orange",
  debit: "grape",
  percent_discount: "cyan",
  flat_discount: "cyan",
};

function Description({ text }: { text: string }) {
  if (text === "")
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const body = (
    <Text size="sm" truncate="end">
      {text}
    </Text>
  );
  if (text.length < DESCRIPTION_TOOLTIP_LENGTH) return body;
  return (
    <Tooltip label={text} multiline maw={360} openDelay={200}>
      {body}
    </Tooltip>
  );
}

function EditingRow({
  editing,
  saving,
  onChange,
  onSave,
  onCancel,
}: {
  editing: Editing;
  saving: boolean;
  onChange: <K extends CodeField>(field: K, value: CodeDraft[K]) => void;
  onSave: () => void;
  onCancel: () => void;
}) {
  const { draft, errors } = editing;
  const keys = (event: KeyboardEvent) => {
    if (event.key === "Enter") {
      event.preventDefault();
      onSave();
    } else if (event.key === "Escape") {
      onCancel();
    }
  };
  return (
    <Table.Tr bg="var(--mantine-color-yellow-0)" data-state="editing" onKeyDown={keys}>
      <Table.Td>
        <TextInput
          size="xs"
          aria-label="Code"
          inputMode="numeric"
          value={draft.code}
          error={errors.code}
          onChange={(event) => onChange("code", event.currentTarget.value)}
        />
      </Table.Td>
      <Table.Td>
        <TextInput
          size="xs"
          aria-label="Name"
          value={draft.code_name}
          error={errors.code_name}
          onChange={(event) => onChange("code_name", event.currentTarget.value)}
        />
      </Table.Td>
      <Table.Td>
        <TextInput
          size="xs"
          aria-label="Description"
          value={draft.description}
          error={errors.description}
          rightSection={
            <Text size="10px" c={draft.description.trim().length > DESCRIPTION_MAX_LENGTH ? "red" : "dimmed"}>
              {draft.description.trim().length}
            </Text>
          }
          rightSectionWidth={32}
          onChange={(event) => onChange("description", event.currentTarget.value)}
        />
      </Table.Td>
      <Table.Td>
        <Select
          size="xs"
          aria-label="Type"
          data={CODE_TYPE_OPTIONS}
          allowDeselect={false}
          value={draft.code_type === "" ? null : draft.code_type}
          error={errors.code_type}
          onChange={(value) => onChange("code_type", isCodeType(value) ? value : "")}
        />
      </Table.Td>
      <Table.Td>
        <Checkbox
          aria-label="Taxable"
          checked={draft.taxable}
          onChange={(event) => onChange("taxable", event.currentTarget.checked)}
        />
      </Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Button size="compact-sm" onClick={onSave} loading={saving}>
            Save
          </Button>
          <Button size="compact-sm" variant="default" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

const TAXABLE_OPTIONS = [
  { value: "keep", label: "Keep as is" },
  { value: "yes", label: "Taxable" },
  { value: "no", label: "Not taxable" },
];

function MassEditBar({
  mass,
  saving,
  onChange,
  onSave,
  onClose,
}: {
  mass: MassEdit;
  saving: boolean;
  onChange: (mass: MassEdit) => void;
  onSave: () => void;
  onClose: () => void;
}) {
  const count = mass.selected.size;
  const nothingToChange = mass.codeType === "" && mass.taxable === "keep";
  return (
    <Paper
      withBorder
      p="sm"
      mb="sm"
      bg="var(--mantine-color-teal-0)"
      component="section"
      aria-label="Mass edit"
    >
      <Group justify="space-between" align="flex-end" gap="sm">
        <Group align="flex-end" gap="sm">
          <div>
            <Text fw={600} size="sm">
              Change a field for {count} selected {count === 1 ? "code" : "codes"}
            </Text>
            <Text size="xs" c="dimmed">
              Tick the codes below, choose the new values, then save.
            </Text>
          </div>
          <Select
            size="xs"
            label="Type"
            placeholder="Keep as is"
            clearable
            w={200}
            data={CODE_TYPE_OPTIONS}
            value={mass.codeType === "" ? null : mass.codeType}
            onChange={(value) => onChange({ ...mass, codeType: isCodeType(value) ? value : "" })}
          />
          <Select
            size="xs"
            label="Taxable"
            w={150}
            allowDeselect={false}
            data={TAXABLE_OPTIONS}
            value={mass.taxable}
            onChange={(value) =>
              onChange({ ...mass, taxable: value === "yes" || value === "no" ? value : "keep" })
            }
          />
        </Group>
        <Group gap="sm">
          <Button size="sm" onClick={onSave} loading={saving} disabled={count === 0 || nothingToChange}>
            Save Changes
          </Button>
          <Button size="sm" variant="default" onClick={onClose} disabled={saving}>
            Close Mass Edit
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
