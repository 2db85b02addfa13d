import { codeLabel } from "../../shared/codes";
import { FREQUENCY_LABELS } from "@cyclebill/domain";
import { Badge } from "@mantine/core";
import { formatAmount, formatIsoDate } from "../../lib/format";
import { ChargeTab } from "./ChargeTab";
import { descriptionCell, type ChargeColumn } from "./EditableChargeTable";
import {
  emptyRecurringDraft,
  monthName,
  RECURRING_FIELDS,
  recurringDraftOf,
  trimRate,
  validateRecurringDraft,
} from "./charge-drafts";
import {
  useCodeLookup,
  useDeleteRecurringCharge,
  useRecurringCharges,
  useSaveRecurringCharge,
  type RecurringCharge,
} from "./customer-children-api";
import { RecurringDraftInputs } from "./DraftEditors";

function season(charge: Pick<RecurringCharge, "start_month" | "end_month">): string {
  if (charge.start_month === 1 && charge.end_month === 12) return "All year";
  if (charge.start_month === charge.end_month) return `${monthName(charge.start_month)} only`;
  return `${monthName(charge.start_month).slice(0, 3)} – ${monthName(charge.end_month).slice(0, 3)}`;
}

/** The start date the user gave it, or the day it was added (the run also waits for the open date). */
function billsFrom(charge: Pick<RecurringCharge, "start_date" | "created">): string {
  return formatIsoDate(charge.start_date ?? charge.created.slice(0, 10));
}

/** Recurring Charges: charges the production run bills on their schedule (season, frequency, Advance or Arrears). */
export function RecurringChargesTab({ clientId, customerId }: { clientId: number; customerId: number }) {
  const list = useRecurringCharges(clientId, customerId);
  const codes = useCodeLookup(clientId);
  const save = useSaveRecurringCharge(clientId, customerId);
  const remove = useDeleteRecurringCharge(clientId, customerId);

  const codeName = (id: number) => {
    const code = codes.byId.get(id);
    return code ? codeLabel(code) : codes.isPending ? "…" : `Code #${String(id)}`;
  };

  const columns: ChargeColumn<RecurringCharge>[] = [
    { header: "Code", cell: (row) => codeName(row.auto_code) },
    { header: "Description", cell: (row) => descriptionCell(row.description) },
    { header: "Rate", numeric: true, cell: (row) => trimRate(row.rate) },
    { header: "Qty", numeric: true, cell: (row) => row.quantity },
    { header: "Amount", numeric: true, strong: true, cell: (row) => formatAmount(row.auto_amount) },
    { header: "Months", nowrap: true, cell: season },
    { header: "Frequency", cell: (row) => FREQUENCY_LABELS[row.frequency] },
    {
      header: "Billed in",
      cell: (row) => (
        <Badge
          variant="light"
          color={row.arrears ? "grape" : "blue"}
          tt="none"
          style={{ minWidth: "fit-content" }}
        >
          {row.finance_type}
        </Badge>
      ),
    },
    { header: "Bills from", nowrap: true, cell: billsFrom },
  ];

  return (
    <ChargeTab
      noun={{ one: "recurring charge", many: "recurring charges" }}
      hint={
        <>
          Billed by the production run from the start month to the end month at the chosen frequency. Advance
          bills the month the cycle runs in; Arrears bills the month just ended. It bills from its start date
          (blank: the day it is added), never before the customer&apos;s open date.
        </>
      }
      customerId={customerId}
      list={list}
      save={save}
      remove={remove}
      fields={RECURRING_FIELDS}
      rename={{ auto_code: "code" }}
      emptyDraft={emptyRecurringDraft}
      draftOf={(row) => recurringDraftOf(row, codes.byId)}
      validate={validateRecurringDraft}
      inputs={(draft, errors, onChange) => (
        <RecurringDraftInputs clientId={clientId} draft={draft} errors={errors} onChange={onChange} />
      )}
      columns={columns}
      minWidth={940}
      codeName={(row) => codeName(row.auto_code)}
      deleteQuestion={(row) => (
        <>
          Delete the recurring charge <strong>{row ? codeName(row.auto_code) : ""}</strong> (
          {row ? formatAmount(row.auto_amount) : ""})? It will not be billed again. Charges already billed
          stay.
        </>
      )}
    />
  );
}
