import { Badge, Button, Checkbox, Group, Table, Text } from "@mantine/core";
import { Link } from "react-router";
import { formatAmount, formatIsoDate } from "../../lib/format";
import type { SortState } from "../../lib/paging";
import { EmptyRow, LoadingRows } from "../shell/LoadingRows";
import { SortableTh } from "../shell/SortableTh";
import { DeliveryNote } from "./DeliveryNote";
import {
  STATUS_LABELS,
  documentName,
  hasPdf,
  pdfPath,
  type DocumentRow,
  type DocumentSortField,
} from "./documents-api";
import { PageCheckbox } from "../shell/PageCheckbox";
import { StatementActionsMenu, StatementCorrectionBadges } from "./StatementActions";

const COLUMNS = 10;
const STATUS_COLORS = { open: "blue", closed: "gray", processed: "teal" } as const;

export const rowKey = (row: Pick<DocumentRow, "document" | "id">) => `${row.document}-${String(row.id)}`;

export type DocumentsTableProps = {
  rows: DocumentRow[];
  loading: boolean;
  emptyText: string;
  sort: SortState<DocumentSortField>;
  onSort: (field: DocumentSortField) => void;
  selected: ReadonlyMap<string, DocumentRow>;
  onSelect: (rows: DocumentRow[], selected: boolean) => void;
  editPath: (row: DocumentRow) => string;
  downloadingPath: string | null;
  onDownload: (row: DocumentRow) => void;
  onDelete: (row: DocumentRow) => void;
  /** Owners and admins: the document's history in the audit trail. */
  onHistory?: (row: DocumentRow) => void;
  /** The client, for a statement's own actions (reissue, resend, add to the next pool). */
  clientId: number;
};

/** The client's invoices and statements, one page, with their money and how they went out. */
export function DocumentsTable(props: DocumentsTableProps) {
  const { rows, sort, onSort, selected, onSelect } = props;
  const selectable = rows.filter(hasPdf);
  const pageSelected = selectable.filter((row) => selected.has(rowKey(row))).length;
  const th = (field: DocumentSortField, label: string, w?: number, align?: "right") => (
    <SortableTh field={field} sort={sort} onSort={onSort} w={w} align={align}>
      {label}
    </SortableTh>
  );
  return (
    <Table.ScrollContainer minWidth={1100}>
      <Table verticalSpacing="xs" highlightOnHover aria-label="Invoices and statements">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={36}>
              <PageCheckbox
                label="Select every PDF on this page"
                selected={pageSelected}
                total={selectable.length}
                disabled={selectable.length === 0}
                onChange={(checked) => onSelect(selectable, checked)}
              />
            </Table.Th>
            {th("document", "Document", 96)}
            {th("invoice_num", "Number", 84)}
            {th("customer_no", "Customer")}
            {/* The spec's created column rides under the date: the money columns need the room. */}
            {th("invoice_date", "Date", 124)}
            {th("amount", "Amount", 96, "right")}
            {th("amount_due", "Amount due", 112, "right")}
            {th("due_date", "Due date", 112)}
            {th("invoice_status", "Status", 150)}
            <Table.Th w={168}>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.loading ? (
            <LoadingRows columns={COLUMNS} />
          ) : rows.length === 0 ? (
            <EmptyRow columns={COLUMNS} look="roomy">
              {props.emptyText}
            </EmptyRow>
          ) : (
            rows.map((row) => (
              <DocumentTableRow
                key={rowKey(row)}
                row={row}
                checked={selected.has(rowKey(row))}
                onCheck={(checked) => onSelect([row], checked)}
                editPath={props.editPath(row)}
                downloading={props.downloadingPath === pdfPath(row)}
                onDownload={() => props.onDownload(row)}
                onDelete={() => props.onDelete(row)}
                onHistory={props.onHistory ? () => props.onHistory?.(row) : undefined}
                clientId={props.clientId}
              />
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function DueCell({ row }: { row: DocumentRow }) {
  if (row.document === "statement" && row.carried_forward)
    return (
      <Text
        size="sm"
        c="dimmed"
        ta="right"
        title="Its balance was carried into the customer's next statement"
      >
        {formatAmount(row.amount_due)}
        <Text span size="xs" display="block">
          carried forward
        </Text>
      </Text>
    );
  return (
    <Text size="sm" ta="right" fw={row.overdue ? 700 : undefined} c={row.overdue ? "red.8" : undefined}>
      {formatAmount(row.amount_due)}
      {row.autopay && row.document === "statement" ? (
        <Text span size="xs" c="dimmed" display="block">
          autopay
        </Text>
      ) : null}
    </Text>
  );
}

function DocumentTableRow({
  row,
  checked,
  onCheck,
  editPath,
  downloading,
  onDownload,
  onDelete,
  onHistory,
  clientId,
}: {
  row: DocumentRow;
  checked: boolean;
  onCheck: (checked: boolean) => void;
  editPath: string;
  downloading: boolean;
  onDownload: () => void;
  onDelete: () => void;
  onHistory?: () => void;
  clientId: number;
}) {
  const name = documentName(row);
  const editable = row.actions.includes("edit");
  const kind = row.document === "invoice" ? "Invoice" : "Statement";
  return (
    <Table.Tr bg={checked ? "var(--mantine-color-blue-light)" : undefined}>
      <Table.Td>
        {/* The spec offers an invoice's PDF once it is no longer open; only PDFs can be combined. */}
        {hasPdf(row) ? (
          <Checkbox
            aria-label={`Select ${name}`}
            checked={checked}
            onChange={(event) => onCheck(event.currentTarget.checked)}
          />
        ) : null}
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={row.document === "invoice" ? "indigo" : "grape"} radius="sm" tt="none">
          {kind}
        </Badge>
      </Table.Td>
      <Table.Td>{row.invoice_num}</Table.Td>
      <Table.Td>
        <Text size="sm" truncate="end" maw={240}>
          {row.customer_no} · {row.customer_name}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: "nowrap" }}>
        <Text size="sm">{formatIsoDate(row.invoice_date)}</Text>
        <Text size="xs" c="dimmed">
          created {formatIsoDate(row.created)}
        </Text>
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>
        {formatAmount(row.amount)}
      </Table.Td>
      <Table.Td>
        <DueCell row={row} />
      </Table.Td>
      <Table.Td>
        {row.due_date === null ? (
          <Text
            size="sm"
            c="dimmed"
            title={
              row.document === "statement"
                ? "A credit balance: nothing is due"
                : "An open invoice has not gone out yet"
            }
          >
            —
          </Text>
        ) : (
          <Text size="sm" c={row.overdue ? "red.8" : undefined} style={{ whiteSpace: "nowrap" }}>
            {formatIsoDate(row.due_date)}
            {row.overdue ? (
              <Badge color="red" variant="light" size="xs" display="block" w="fit-content" mt={2}>
                Overdue
              </Badge>
            ) : null}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Badge variant="dot" color={STATUS_COLORS[row.invoice_status]}>
          {STATUS_LABELS[row.invoice_status]}
        </Badge>
        <DeliveryNote row={row} />
        <StatementCorrectionBadges row={row} />
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          {hasPdf(row) ? (
            <Button
              size="compact-sm"
              variant="default"
              loading={downloading}
              onClick={onDownload}
              aria-label={`Download ${name} PDF`}
            >
              PDF
            </Button>
          ) : null}
          {row.document === "invoice" ? (
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
          <StatementActionsMenu row={row} clientId={clientId} />
          {onHistory ? (
            <Button size="compact-sm" variant="subtle" onClick={onHistory} aria-label={`History of ${name}`}>
              History
            </Button>
          ) : null}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
