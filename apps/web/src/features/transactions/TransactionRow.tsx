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
import { displayedAmount, displayedDraftAmount, entryMarks } from "@cyclebill/domain";
import type { KeyboardEvent } from "react";
import { Link } from "react-router";
import { formatAmount, formatIsoDate, formatRate } from "../../lib/format";
import { useClientContext } from "../../shared/client-context";
import { draftAmount, tidyDecimal } from "./add-row-draft";
import { ACTION_LABELS, actionsFor, massEditRefusal, offers, rowStyle } from "./row-rules";
import type { RowAction, Transaction } from "./transactions-api";
import type { RowEdit } from "./use-row-edit";
import { unitOptions } from "../codes/units-of-measure";

export type TransactionRowProps = {
  row: Transaction;
  showCustomer: boolean;
  showQty: boolean;
  units: readonly { id: number; name: string }[];
  selection?: { ids: ReadonlySet<number>; onToggle: (row: Transaction) => void };
  /** The invoice the table shows (invoice edit): its rows need no link to it. */
  currentInvoiceId?: number;
  edit: RowEdit;
  /** Another row is being edited: this one's Edit waits. */
  editLocked: boolean;
  onAction: (action: RowAction) => void;
};

/** One entry of the transaction table: shown, or edited in place; its actions per the API's flags. */
export function TransactionRow(props: TransactionRowProps) {
  const { row, showCustomer, showQty, units, selection, edit } = props;
  const { withClient } = useClientContext();
  const { editing, saving, patch, saveEdit } = edit;
  const style = rowStyle(row);
  const isEditing = editing?.id === row.id;
  const onKeyDown = (event: KeyboardEvent) => {
    if (isEditing && event.key === "Enter" && event.ctrlKey) {
      event.preventDefault();
      void saveEdit(row);
    } else if (isEditing && event.key === "Escape") {
      event.stopPropagation();
      edit.cancel();
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
    <Table.Tr bg={style.bg} data-row-style={style.kind} onKeyDown={onKeyDown}>
      {selection ? (
        <Table.Td data-label="Select">
          <SelectBox row={row} checked={selection.ids.has(row.id)} onToggle={selection.onToggle} />
        </Table.Td>
      ) : null}
      {showCustomer ? (
        <Table.Td data-label="Customer">
          <Text size="sm" truncate maw={180}>
            {row.customer_no} ·{" "}
            {row.customer_name.length > 30 ? `${row.customer_name.slice(0, 30)}…` : row.customer_name}
          </Text>
        </Table.Td>
      ) : null}
      <Table.Td data-label="Code">{row.displayCode}</Table.Td>
      <Table.Td data-label="Description">
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
      <Table.Td data-label="Date">
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
          <Table.Td data-label="Qty">
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
          <Table.Td data-label="Units">
            {isEditing && editing ? (
              <NativeSelect
                aria-label="Units"
                size="xs"
                value={editing.draft.unitofmeasure}
                data={unitOptions(units)}
                onChange={(event) => patch({ unitofmeasure: event.currentTarget.value })}
              />
            ) : (
              (row.uom ?? "")
            )}
          </Table.Td>
        </>
      ) : null}
      <Table.Td ta="right" data-label="Rate">
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
      <Table.Td
        ta="right"
        data-label="Amount"
        title={info ? "Info lines do not change the balance" : undefined}
      >
        {amount === null ? (
          "—"
        ) : uncounted ? (
          // On an invoice its void is elsewhere: the voided line counts for nothing in the total.
          <Text span size="sm" td="line-through" title="Voided: not counted in the invoice total">
            {formatAmount(amount)}
          </Text>
        ) : (
          formatAmount(amount)
        )}
      </Table.Td>
      <Table.Td data-label="Entered" style={{ whiteSpace: "nowrap" }}>
        {formatIsoDate(row.created)}
      </Table.Td>
      <Table.Td data-label="Actions" miw={isEditing ? 120 : 110}>
        {/* The actions wrap onto a second line rather than widen the table past the screen. */}
        <Group gap={4} wrap="wrap">
          {isEditing ? (
            <>
              <Button size="compact-xs" onClick={() => void saveEdit(row)} loading={saving}>
                Save
              </Button>
              <Button size="compact-xs" variant="default" onClick={edit.cancel} disabled={saving}>
                Cancel
              </Button>
            </>
          ) : (
            <>
              {offers(row, "edit") ? (
                <Button
                  size="compact-xs"
                  variant="light"
                  onClick={() => edit.startEdit(row)}
                  disabled={props.editLocked}
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
                  onClick={() => props.onAction(candidate)}
                >
                  {ACTION_LABELS[candidate.kind]}
                </Button>
              ))}
              {offers(row, "open_invoice") && row.invoice !== props.currentInvoiceId ? (
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
