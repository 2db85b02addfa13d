import { codeLabel } from "../../shared/codes";
import { formatAmount } from "../../lib/format";
import { ChargeTab } from "./ChargeTab";
import { descriptionCell, type ChargeColumn } from "./EditableChargeTable";
import {
  displayQuantity,
  emptyStoredDraft,
  STORED_FIELDS,
  storedDraftOf,
  trimRate,
  validateStoredDraft,
} from "./charge-drafts";
import {
  useCodeLookup,
  useDeleteStoredAmount,
  useSaveStoredAmount,
  useStoredAmounts,
  type StoredAmount,
} from "./customer-children-api";
import { StoredDraftInputs } from "./DraftEditors";
import { useUnitsOfMeasure } from "../codes/units-of-measure";

/** Stored Amounts: the code, description, rate and quantity offered when entering this customer's transactions. */
export function StoredAmountsTab({ clientId, customerId }: { clientId: number; customerId: number }) {
  const list = useStoredAmounts(clientId, customerId);
  const codes = useCodeLookup(clientId);
  const units = useUnitsOfMeasure();
  const save = useSaveStoredAmount(clientId, customerId);
  const remove = useDeleteStoredAmount(clientId, customerId);

  const unitName = (id: number | null) => units.find((unit) => unit.id === id)?.name ?? "—";
  const codeName = (id: number) => {
    const code = codes.byId.get(id);
    return code ? codeLabel(code) : codes.isPending ? "…" : `Code #${String(id)}`;
  };

  const columns: ChargeColumn<StoredAmount>[] = [
    { header: "Code", cell: (row) => codeName(row.storedCode) },
    { header: "Description", cell: (row) => descriptionCell(row.description) },
    { header: "Rate", numeric: true, cell: (row) => trimRate(row.rate) },
    { header: "Quantity", numeric: true, cell: (row) => displayQuantity(row.quantity) },
    { header: "Units", cell: (row) => unitName(row.unitofmeasure) },
    { header: "Amount", numeric: true, strong: true, cell: (row) => formatAmount(row.storedAmount) },
  ];

  return (
    <ChargeTab
      noun={{ one: "stored amount", many: "stored amounts" }}
      hint="Offered when a transaction is entered for this customer with the same code. Amount = quantity × rate."
      customerId={customerId}
      list={list}
      save={save}
      remove={remove}
      fields={STORED_FIELDS}
      rename={{ storedCode: "code" }}
      emptyDraft={emptyStoredDraft}
      draftOf={(row) => storedDraftOf(row, codes.byId)}
      validate={validateStoredDraft}
      inputs={(draft, errors, onChange) => (
        <StoredDraftInputs
          clientId={clientId}
          draft={draft}
          errors={errors}
          units={units}
          onChange={onChange}
        />
      )}
      columns={columns}
      minWidth={720}
      codeName={(row) => codeName(row.storedCode)}
      deleteQuestion={(row) => (
        <>
          Delete the stored amount for <strong>{row ? codeName(row.storedCode) : ""}</strong> (
          {row ? formatAmount(row.storedAmount) : ""})? Transactions already entered keep their amounts.
        </>
      )}
    />
  );
}
