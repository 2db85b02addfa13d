import { Table } from "@mantine/core";
import type { SortState } from "../../lib/paging";
import { EmptyRow, LoadingRows } from "../shell/LoadingRows";
import { SortableTh } from "../shell/SortableTh";
import { CodeEditingRow } from "./CodeEditingRow";
import { CodeViewingRow } from "./CodeViewingRow";
import { isSystemCode, type Code } from "./codes-api";
import type { useCodeEditing } from "./use-code-editing";
import type { MassEdit } from "./use-mass-edit";
import { PageCheckbox } from "../shell/PageCheckbox";

export type CodeSortField = "code" | "code_name" | "description" | "code_type" | "taxable";

/** One page of codes: sortable headers, a row editor in place, and tick boxes in mass edit. */
export function CodesTable({
  rows,
  loading,
  emptyText,
  sort,
  onSort,
  mass,
  onToggle,
  editor,
  onDelete,
}: {
  rows: Code[];
  loading: boolean;
  emptyText: string;
  sort: SortState<CodeSortField>;
  onSort: (field: CodeSortField) => void;
  mass: MassEdit | null;
  onToggle: (ids: number[], on: boolean) => void;
  editor: ReturnType<typeof useCodeEditing>;
  onDelete: (code: Code) => void;
}) {
  const { editing } = editor;
  const editableOnPage = rows.filter((code) => !isSystemCode(code)).map((code) => code.id);
  const selectedOnPage = editableOnPage.filter((id) => mass?.selected.has(id)).length;
  const columns = mass ? 7 : 6;

  return (
    <Table.ScrollContainer minWidth={860}>
      <Table verticalSpacing="xs" highlightOnHover aria-label="Bill codes" style={{ tableLayout: "fixed" }}>
        <Table.Thead>
          <Table.Tr>
            {mass ? (
              <Table.Th w={44}>
                <PageCheckbox
                  label="Select every code on this page"
                  selected={selectedOnPage}
                  total={editableOnPage.length}
                  onChange={(checked) => onToggle(editableOnPage, checked)}
                />
              </Table.Th>
            ) : null}
            <SortableTh field="code" sort={sort} onSort={onSort} w={110}>
              Code
            </SortableTh>
            <SortableTh field="code_name" sort={sort} onSort={onSort} w="18%">
              Name
            </SortableTh>
            <SortableTh field="description" sort={sort} onSort={onSort}>
              Description
            </SortableTh>
            <SortableTh field="code_type" sort={sort} onSort={onSort} w={190}>
              Type
            </SortableTh>
            <SortableTh field="taxable" sort={sort} onSort={onSort} w={100}>
              Taxable
            </SortableTh>
            <Table.Th w={160} ta="right">
              Actions
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading ? (
            <LoadingRows columns={columns} />
          ) : rows.length === 0 ? (
            <EmptyRow columns={columns} look="roomy">
              {emptyText}
            </EmptyRow>
          ) : (
            rows.map((code) =>
              editing?.id === code.id ? (
                <CodeEditingRow
                  key={code.id}
                  editing={editing}
                  saving={editor.saving}
                  onChange={editor.change}
                  onSave={editor.save}
                  onCancel={editor.cancel}
                />
              ) : (
                <CodeViewingRow
                  key={code.id}
                  code={code}
                  saved={editor.savedId === code.id}
                  mass={mass}
                  busy={editing !== null}
                  onSelect={(on) => onToggle([code.id], on)}
                  onEdit={() => editor.start(code)}
                  onDelete={() => onDelete(code)}
                />
              ),
            )
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
