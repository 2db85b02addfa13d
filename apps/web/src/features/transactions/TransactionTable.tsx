import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Table,
  Text,
  TextInput,
  Tooltip,
} from "@mantine/core";
import { useState, type KeyboardEvent, type ReactNode } from "react";
import { Link } from "react-router";
import { displayedAmount, displayedDraftAmount, entryMarks } from "@cyclebill/domain";
import { formatAmount, formatIsoDate, formatRate } from "../../lib/format";
import { useClientContext } from "../../shared/client-context";
import { useUnitsOfMeasure } from "../codes/units-of-measure";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { draftAmount, tidyDecimal } from "./AddTransactionRow";
import { SaveFeedback } from "./SaveFeedback";
import {
  classifySaveError,
  editTransaction,
  useRefreshLedger,
  useRowAction,
  type RowAction,
  type SaveFailure,
  type Transaction,
} from "./transactions-api";

export type TransactionTableProps = {
  label: string;
  clientId: number | null;
  rows: readonly Transaction[];
  showCustomer: boolean;
  showQty: boolean;
  loading?: boolean;
  /** The add row, rendered first in the body. */
  addRow?: ReactNode;
  /** Mass update: the Select column and the chosen ids. */
  selection?: {
    ids: ReadonlySet<number>;
    onToggle: (row: Transaction) => void;
    onToggleAll: (rows: readonly Transaction[]) => void;
  };
  emptyText?: string;
  /** The invoice this table shows (invoice edit): its rows need no link to it. */
  currentInvoiceId?: number;
};

/** Why mass edit cannot change this entry (it can change exactly the entries one may edit), or null. */
export function massEditRefusal(row: Transaction): string | null {
  if (row.editable) return null;
  if (row.voided || row.transaction_type === "voids_a_transaction")
    return "Voided entries cannot be changed.";
  if (row.reverses_transaction !== null || row.reversed_by !== null)
    return "Reversed entries and reversals cannot be changed.";
  if (row.statement !== null) return "Entries already on a statement cannot be changed.";
  if (row.invoice !== null)
    return `On invoice ${String(row.invoice_num ?? row.invoice)}, which is no longer open: it cannot be changed.`;
  return "This entry cannot be changed.";
}

/** Row styles (spec section 2): stored amount mismatch as warning; invoice and processed rows distinct. */
function rowStyle(row: Transaction): { bg?: string; kind: string } {
  if (row.invoice_status === "processed") return { bg: "var(--mantine-color-gray-1)", kind: "processed" };
  if (row.transaction_type === "invoice") return { bg: "var(--mantine-color-blue-light)", kind: "invoice" };
  if (!row.stored_amount_flag) return { bg: "var(--mantine-color-yellow-light)", kind: "warning" };
  return { kind: "plain" };
}

const ACTION_LABELS: Record<RowAction["kind"], string> = {
  delete: "Delete",
  void: "Void",
  deleteVoid: "Delete Void",
  reversal: "Reversal",
  deleteReversal: "Delete Reversal",
};

type EditDraft = {
  description: string;
  serviceDate: string;
  quantity: string;
  rate: string;
  unitofmeasure: string;
};

/** The shared transaction table (spec section 2): in-place edit, row actions per the API's flags. */
export function TransactionTable(props: TransactionTableProps) {
  const { clientId, rows, showCustomer, showQty, selection } = props;
  const { withClient } = useClientContext();
  const units = useUnitsOfMeasure();
  const action = useRowAction(clientId);
  const refresh = useRefreshLedger();
  const [editing, setEditing] = useState<{ id: number; draft: EditDraft } | null>(null);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const [confirm, setConfirm] = useState<RowAction | null>(null);

  const startEdit = (row: Transaction) =>
    setEditing({
      id: row.id,
      draft: {
        description: row.description,
        serviceDate: row.serviceDate.slice(0, 10),
        quantity: tidyDecimal(row.quantity),
        rate: tidyDecimal(row.rate),
        unitofmeasure: String(row.unitofmeasure ?? 1),
      },
    });

  const saveEdit = async (row: Transaction, force = false) => {
    if (!editing) return;
    setSaving(true);
    try {
      await editTransaction(clientId, row.id, {
        customer: row.customer,
        code: row.code,
        description: editing.draft.description.trim(),
        quantity: editing.draft.quantity.trim() || "1",
        rate: editing.draft.rate.trim(),
        serviceDate: editing.draft.serviceDate,
        unitofmeasure: Number(editing.draft.unitofmeasure) || 1,
        force,
      });
      setEditing(null);
      setFailure(null);
      await refresh();
    } catch (error) {
      // A failed save stays in editing.
      setFailure(classifySaveError(error));
    } finally {
      setSaving(false);
    }
  };

  const patch = (values: Partial<EditDraft>) =>
    setEditing((current) => (current ? { ...current, draft: { ...current.draft, ...values } } : current));

  const columns = 7 + (showCustomer ? 1 : 0) + (showQty ? 2 : 0) + (selection ? 1 : 0);
  const editingRow = rows.find((row) => row.id === editing?.id);

  const actionsFor = (row: Transaction): RowAction[] => {
    const list: RowAction[] = [];
    if (row.editable) list.push({ kind: "delete", id: row.id });
    if (row.voidable) list.push({ kind: "void", id: row.id });
    if (row.void_deletable) list.push({ kind: "deleteVoid", id: row.id });
    if (row.reversible) list.push({ kind: "reversal", id: row.id });
    if (row.reverses_transaction !== null && row.transaction_status === "new" && row.invoice === null)
      list.push({ kind: "deleteReversal", id: row.id });
    return list;
  };

  const renderRow = (row: Transaction) => {
    const style = rowStyle(row);
    const isEditing = editing?.id === row.id;
    const onKeyDown = (event: KeyboardEvent) => {
      if (isEditing && event.key === "Enter" && event.ctrlKey) {
        event.preventDefault();
        void saveEdit(row);
      } else if (isEditing && event.key === "Escape") {
        event.stopPropagation();
        setEditing(null);
      }
    };
    // Amounts show their effect on the balance, as the totals and PDFs count it: a payment is
    // -$20.00, a charge's reversal -$88.94 (one rule, displayedAmount, from the signed ledger amount).
    const drafted = isEditing && editing ? draftAmount(editing.draft.rate, editing.draft.quantity) : null;
    const info = row.code_type === "info";
    const uncounted = row.voided && props.currentInvoiceId !== undefined;
    const amount =
      isEditing && editing
        ? drafted === null
          ? null
          : displayedDraftAmount(row.code_type, drafted)
        : displayedAmount(row);
    return (
      <Table.Tr key={row.id} bg={style.bg} data-row-style={style.kind} onKeyDown={onKeyDown}>
        {selection ? (
          <Table.Td>
            <SelectBox row={row} checked={selection.ids.has(row.id)} onToggle={selection.onToggle} />
          </Table.Td>
        ) : null}
        {showCustomer ? (
          <Table.Td>
            <Text size="sm" truncate maw={180}>
              {row.customer_no} ·{" "}
              {row.customer_name.length > 30 ? `${row.customer_name.slice(0, 30)}…` : row.customer_name}
            </Text>
          </Table.Td>
        ) : null}
        <Table.Td>{row.displayCode}</Table.Td>
        <Table.Td>
          {isEditing && editing ? (
            <TextInput
              aria-label="Description"
              size="xs"
              value={editing.draft.description}
              onChange={(event) => patch({ description: event.currentTarget.value })}
              data-autofocus
              autoFocus
            />
          ) : (
            <Group gap={6} wrap="nowrap">
              {row.description.length >= 30 ? (
                <Tooltip label={row.description} withinPortal>
                  <Text size="sm" truncate maw={240}>
                    {row.description}
                  </Text>
                </Tooltip>
              ) : (
                <Text size="sm">{row.description}</Text>
              )}
              {entryMarks(row).map((mark) => (
                <Badge key={mark} size="xs" color="gray">
                  {mark}
                </Badge>
              ))}
              {row.invoice_status === "processed" ? (
                <Badge size="xs" color="gray">
                  Sent
                </Badge>
              ) : null}
            </Group>
          )}
        </Table.Td>
        <Table.Td>
          {isEditing && editing ? (
            <TextInput
              type="date"
              aria-label="Service date"
              size="xs"
              value={editing.draft.serviceDate}
              onChange={(event) => patch({ serviceDate: event.currentTarget.value })}
            />
          ) : (
            <Text size="sm" style={{ whiteSpace: "nowrap" }}>
              {formatIsoDate(row.serviceDate)}
            </Text>
          )}
        </Table.Td>
        {showQty ? (
          <>
            <Table.Td>
              {isEditing && editing ? (
                <TextInput
                  aria-label="Quantity"
                  size="xs"
                  w={70}
                  value={editing.draft.quantity}
                  onChange={(event) => patch({ quantity: event.currentTarget.value })}
                />
              ) : (
                tidyDecimal(row.quantity)
              )}
            </Table.Td>
            <Table.Td>
              {isEditing && editing ? (
                <NativeSelect
                  aria-label="Units"
                  size="xs"
                  value={editing.draft.unitofmeasure}
                  data={units.map((unit) => ({ value: String(unit.id), label: unit.name }))}
                  onChange={(event) => patch({ unitofmeasure: event.currentTarget.value })}
                />
              ) : (
                (row.uom ?? "")
              )}
            </Table.Td>
          </>
        ) : null}
        <Table.Td ta="right">
          {isEditing && editing ? (
            <TextInput
              aria-label="Rate"
              size="xs"
              w={90}
              value={editing.draft.rate}
              onChange={(event) => patch({ rate: event.currentTarget.value })}
            />
          ) : (
            formatRate(row.rate)
          )}
        </Table.Td>
        <Table.Td ta="right" title={info ? "Info lines do not change the balance" : undefined}>
          {amount === null ? (
            "—"
          ) : uncounted ? (
            // On an invoice its void is elsewhere: the voided line counts for nothing in the total.
            <Text
              span
              size="sm"
              td="line-through"
              c="dimmed"
              title="Voided: not counted in the invoice total"
            >
              {formatAmount(amount)}
            </Text>
          ) : (
            formatAmount(amount)
          )}
        </Table.Td>
        <Table.Td style={{ whiteSpace: "nowrap" }}>{formatIsoDate(row.created)}</Table.Td>
        <Table.Td miw={isEditing ? 120 : 110}>
          {/* The actions wrap onto a second line rather than widen the table past the screen. */}
          <Group gap={4} wrap="wrap">
            {isEditing ? (
              <>
                <Button size="compact-xs" onClick={() => void saveEdit(row)} loading={saving}>
                  Save
                </Button>
                <Button
                  size="compact-xs"
                  variant="default"
                  onClick={() => setEditing(null)}
                  disabled={saving}
                >
                  Cancel
                </Button>
              </>
            ) : (
              <>
                {row.editable ? (
                  <Button
                    size="compact-xs"
                    variant="light"
                    onClick={() => startEdit(row)}
                    disabled={editingRow !== undefined}
                  >
                    Edit
                  </Button>
                ) : null}
                {actionsFor(row).map((candidate) => (
                  <Button
                    key={candidate.kind}
                    size="compact-xs"
                    variant="subtle"
                    color={candidate.kind === "reversal" || candidate.kind === "void" ? "orange" : "red"}
                    onClick={() => setConfirm(candidate)}
                  >
                    {ACTION_LABELS[candidate.kind]}
                  </Button>
                ))}
                {row.invoice !== null && row.invoice !== props.currentInvoiceId ? (
                  <Anchor
                    component={Link}
                    size="xs"
                    to={withClient(`/transactions/invoice/edit/${row.invoice}`)}
                    aria-label={`Invoice ${row.invoice_num ?? row.invoice}`}
                  >
                    Invoice {row.invoice_num ?? row.invoice}
                  </Anchor>
                ) : null}
              </>
            )}
          </Group>
        </Table.Td>
      </Table.Tr>
    );
  };

  // Select all takes the rows mass edit can change.
  const selectable = rows.filter((row) => massEditRefusal(row) === null);
  return (
    <>
      <Table.ScrollContainer minWidth={900}>
        <Table striped={false} highlightOnHover verticalSpacing={6} aria-label={props.label}>
          <Table.Thead>
            <Table.Tr>
              {selection ? (
                <Table.Th>
                  <Checkbox
                    aria-label="Select all shown"
                    checked={selectable.length > 0 && selectable.every((row) => selection.ids.has(row.id))}
                    disabled={selectable.length === 0}
                    onChange={() => selection.onToggleAll(selectable)}
                  />
                </Table.Th>
              ) : null}
              {showCustomer ? <Table.Th>Customer</Table.Th> : null}
              <Table.Th>Code</Table.Th>
              <Table.Th>Description/Memo</Table.Th>
              <Table.Th>Date</Table.Th>
              {showQty ? (
                <>
                  <Table.Th>Qty</Table.Th>
                  <Table.Th>Units</Table.Th>
                </>
              ) : null}
              <Table.Th ta="right">Rate</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Entered</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.addRow}
            {rows.map(renderRow)}
            {rows.length === 0 && !props.loading ? (
              <Table.Tr>
                <Table.Td colSpan={columns}>
                  <Text size="sm" c="dimmed" ta="center" py="md">
                    {props.emptyText ?? "No transactions match these filters."}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <SaveFeedback
        failure={failure}
        forcing={saving}
        onDismiss={() => setFailure(null)}
        onForce={() => {
          setFailure(null);
          if (editingRow) void saveEdit(editingRow, true);
        }}
      />
      <ConfirmDeleteDialog
        opened={confirm !== null}
        title={confirm ? ACTION_LABELS[confirm.kind] : ""}
        confirmLabel={confirm ? ACTION_LABELS[confirm.kind] : "Delete"}
        loading={action.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm) action.mutate(confirm, { onSettled: () => setConfirm(null) });
        }}
      >
        {confirm?.kind === "delete"
          ? "Delete this transaction? It is removed from the ledger."
          : confirm?.kind === "void"
            ? "Void this transaction? A voiding entry is added so the pair nets to zero."
            : confirm?.kind === "deleteVoid"
              ? "Delete this void? The voided transaction counts again."
              : confirm?.kind === "reversal"
                ? "Reverse this transaction? A reversal entry is added."
                : "Delete this reversal entry?"}
      </ConfirmDeleteDialog>
    </>
  );
}

/** A row's Select box; disabled, with the reason, for entries mass edit cannot change. */
function SelectBox(props: { row: Transaction; checked: boolean; onToggle: (row: Transaction) => void }) {
  const refusal = massEditRefusal(props.row);
  const box = (
    <Checkbox
      aria-label={`Select transaction ${props.row.id}`}
      aria-description={refusal ?? undefined}
      checked={props.checked}
      disabled={refusal !== null && !props.checked}
      onChange={() => props.onToggle(props.row)}
    />
  );
  return refusal === null ? (
    box
  ) : (
    <Tooltip label={refusal} withinPortal>
      <span>{box}</span>
    </Tooltip>
  );
}
