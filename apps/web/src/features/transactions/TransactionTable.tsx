import { Checkbox, Table } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useState, type ReactNode } from "react";
import { useUnitsOfMeasure } from "../codes/units-of-measure";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { ACTION_CONFIRMATIONS, ACTION_LABELS, massEditRefusal } from "./row-rules";
import { SaveFeedback } from "./SaveFeedback";
import { TransactionRow } from "./TransactionRow";
import { useRowAction, type RowAction, type Transaction } from "./transactions-api";
import { useRowEdit } from "./use-row-edit";
import { EmptyRow } from "../shell/LoadingRows";
import classes from "./TransactionTable.module.css";

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

/** The shared transaction table (spec section 2): in-place edit, row actions per the API's flags. */
export function TransactionTable(props: TransactionTableProps) {
  const { clientId, rows, showCustomer, showQty, selection } = props;
  const units = useUnitsOfMeasure();
  const action = useRowAction(clientId);
  const edit = useRowEdit(clientId);
  const { editing, saving, failure, setFailure, saveEdit } = edit;
  const [confirm, setConfirm] = useState<RowAction | null>(null);

  // A phone shows each entry as a card (TransactionTable.module.css): no table wider than the screen.
  const phone = useMediaQuery("(max-width: 48em)") === true;
  const columns = 7 + (showCustomer ? 1 : 0) + (showQty ? 2 : 0) + (selection ? 1 : 0);
  const editingRow = rows.find((row) => row.id === editing?.id);

  const renderRow = (row: Transaction) => (
    <TransactionRow
      key={row.id}
      row={row}
      showCustomer={showCustomer}
      showQty={showQty}
      units={units}
      selection={selection}
      currentInvoiceId={props.currentInvoiceId}
      edit={edit}
      editLocked={editingRow !== undefined}
      onAction={setConfirm}
    />
  );

  // Select all takes the rows mass edit can change.
  const selectable = rows.filter((row) => massEditRefusal(row) === null);
  return (
    <>
      <Table.ScrollContainer minWidth={phone ? 0 : 900}>
        <Table
          className={classes.table}
          striped={false}
          highlightOnHover
          verticalSpacing={6}
          aria-label={props.label}
        >
          <Table.Thead>
            <Table.Tr>
              {selection ? (
                <Table.Th data-keep>
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
              <EmptyRow columns={columns} look="compact">
                {props.emptyText ?? "No transactions match these filters."}
              </EmptyRow>
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
        reasonLabel={confirm && confirm.kind !== "void" && confirm.kind !== "reversal" ? "Reason" : undefined}
        onConfirm={(reason) => {
          if (confirm) action.mutate({ ...confirm, reason }, { onSettled: () => setConfirm(null) });
        }}
      >
        {ACTION_CONFIRMATIONS[confirm?.kind ?? "deleteReversal"]}
      </ConfirmDeleteDialog>
    </>
  );
}
