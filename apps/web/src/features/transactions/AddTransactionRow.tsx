import { Button, Group, NativeSelect, Table, Text, TextInput } from "@mantine/core";
import { displayedDraftAmount, isCodeType } from "@cyclebill/domain";
import { useState, type KeyboardEvent } from "react";
import { formatAmount } from "../../lib/format";
import { unitOptions, useUnitsOfMeasure } from "../codes/units-of-measure";
import { SaveFeedback } from "./SaveFeedback";
import { CodePicker } from "../../shared/CodePicker";
import { CustomerPicker, type PickedCode, type PickedCustomer } from "./pickers";
import {
  classifySaveError,
  createTransaction,
  fetchStoredAmount,
  usePostingDate,
  type SaveFailure,
  type Transaction,
  type TransactionBody,
} from "./transactions-api";
import { today } from "../../lib/business-date";
import {
  draftAmount,
  emptyDraft,
  nextDraft,
  shownServiceDate,
  tidyDecimal,
  type Draft,
  type Lockable,
} from "./add-row-draft";
import { Lock, Locked } from "./RowLocks";

export type AddTransactionRowProps = {
  clientId: number | null;
  showCustomer: boolean;
  showQty: boolean;
  /** A fixed customer (invoice edit): the customer column is hidden and this one is used. */
  fixedCustomer?: PickedCustomer | null;
  /** The customer selected in the top bar: the customer a fresh row starts with. */
  defaultCustomer?: PickedCustomer | null;
  /** Post onto this open invoice (invoice edit). */
  invoiceId?: number;
  onCreated: (transaction: Transaction) => void;
  /** Save: leaves add mode. */
  onSaved: () => void;
  onDone: () => void;
};

/** The table's add-transaction row (spec section 4, Saving a transaction). */
export function AddTransactionRow(props: AddTransactionRowProps) {
  const { clientId, showCustomer, showQty, fixedCustomer } = props;
  const units = useUnitsOfMeasure();
  const startCustomer = fixedCustomer ?? props.defaultCustomer ?? null;
  const [draft, setDraft] = useState<Draft>(() => emptyDraft(startCustomer));
  const [locks, setLocks] = useState<ReadonlySet<Lockable>>(new Set());
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const [pending, setPending] = useState<{ body: TransactionBody; andNew: boolean } | null>(null);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // The server's date for an entry of today (its closed-period rule), never worked out here.
  const postingDate = usePostingDate(clientId).data?.service_date;
  const serviceDate = shownServiceDate(draft, postingDate, today());

  const isLocked = (column: Lockable) => locks.has(column);
  const toggle = (column: Lockable) =>
    setLocks((current) => {
      const next = new Set(current);
      if (next.has(column)) next.delete(column);
      else next.add(column);
      return next;
    });
  const lock = (column: Lockable) => (
    <Lock column={column} locked={isLocked(column)} onToggle={() => toggle(column)} />
  );
  const update = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const customer = fixedCustomer ?? draft.customer;
  // The amount shows its effect on the balance once the code is known (a payment is negative).
  const entered = draftAmount(draft.rate, draft.quantity);
  const codeType = draft.code?.code_type;
  const amount =
    entered !== null && codeType !== undefined && isCodeType(codeType)
      ? displayedDraftAmount(codeType, entered)
      : entered;

  // Choosing a customer and a code fills description, rate and quantity from the customer's stored
  // amount for that code, unless the column is locked; the code's own description otherwise. What
  // the user types while the stored amount loads wins over it.
  const autofill = async (nextCustomer: PickedCustomer | null, nextCode: PickedCode | null) => {
    if (nextCode === null) return;
    const description = isLocked("description") ? draft.description : nextCode.description;
    const before = {
      description,
      rate: draft.rate,
      quantity: draft.quantity,
      unitofmeasure: draft.unitofmeasure,
    };
    update({ description });
    if (nextCustomer === null) return;
    const stored = await fetchStoredAmount(clientId, nextCustomer.id, nextCode.id).catch(() => null);
    if (!stored) return;
    setDraft((current) => {
      if (current.code?.id !== nextCode.id || (fixedCustomer ?? current.customer)?.id !== nextCustomer.id)
        return current;
      const fill: Partial<Draft> = {};
      const untouched = (field: keyof typeof before) => current[field] === before[field];
      if (!isLocked("description") && untouched("description")) fill.description = stored.description;
      if (!isLocked("rate") && !isLocked("amount") && untouched("rate"))
        fill.rate = tidyDecimal(String(stored.rate));
      if (!isLocked("quantity") && !isLocked("amount") && untouched("quantity"))
        fill.quantity = tidyDecimal(String(stored.quantity));
      if (!isLocked("unitofmeasure") && stored.unitofmeasure && untouched("unitofmeasure"))
        fill.unitofmeasure = String(stored.unitofmeasure);
      return { ...current, ...fill };
    });
  };

  const buildBody = (): TransactionBody | null => {
    if (customer === null) return (setProblem("Choose a customer."), null);
    if (draft.code === null) return (setProblem("Choose a code."), null);
    if (!/^\d+(\.\d+)?$/.test(draft.rate.trim()))
      return (setProblem("The rate contains invalid characters. Please use only digits and decimals."), null);
    if (draft.description.trim().length > 60)
      return (
        setProblem(
          "Transaction description is too long. Please make sure it is under 60 characters to appear on the bill correctly.",
        ),
        null
      );
    setProblem(null);
    return {
      customer: customer.id,
      code: draft.code.id,
      description: draft.description.trim(),
      quantity: draft.quantity.trim() || "1",
      rate: draft.rate.trim(),
      serviceDate,
      unitofmeasure: Number(draft.unitofmeasure) || 1,
      ...(props.invoiceId === undefined ? {} : { invoice: props.invoiceId }),
    };
  };

  const send = async (body: TransactionBody, andNew: boolean) => {
    setSaving(true);
    try {
      const created = await createTransaction(clientId, body);
      setFailure(null);
      setPending(null);
      props.onCreated(created);
      if (andNew) {
        // Save & New: a fresh row for the same customer that keeps the locked columns.
        setDraft((current) => nextDraft(current, isLocked));
      } else {
        props.onSaved();
      }
    } catch (error) {
      setPending({ body, andNew });
      setFailure(classifySaveError(error));
    } finally {
      setSaving(false);
    }
  };

  const save = (andNew: boolean) => {
    const body = buildBody();
    if (body) void send(body, andNew);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter" && event.ctrlKey) {
      event.preventDefault();
      save(true);
    }
  };

  return (
    <>
      <Table.Tr onKeyDown={onKeyDown} aria-label="Add Transaction" bg="var(--mantine-color-teal-light)">
        {/* The fields wrap in one cell spanning the table, so the add row never widens the table. */}
        <Table.Td colSpan={20}>
          <Group gap="sm" wrap="wrap" align="center">
            {showCustomer ? (
              <>
                {fixedCustomer ? (
                  <Text size="sm">{fixedCustomer.label}</Text>
                ) : (
                  <Locked lock={lock("customer")}>
                    <CustomerPicker
                      clientId={clientId}
                      label="New transaction customer"
                      value={draft.customer}
                      width={170}
                      onChange={(picked) => {
                        update({ customer: picked });
                        void autofill(picked, draft.code);
                      }}
                    />
                  </Locked>
                )}
              </>
            ) : null}
            <>
              <Locked lock={lock("code")}>
                <CodePicker
                  clientId={clientId}
                  label="New transaction code"
                  showLabel={false}
                  value={draft.code}
                  width={130}
                  onChange={(picked) => {
                    update({ code: picked });
                    void autofill(customer, picked);
                  }}
                />
              </Locked>
            </>
            <>
              <Locked lock={lock("description")}>
                <TextInput
                  aria-label="New transaction description"
                  placeholder="Description/Memo"
                  value={draft.description}
                  onChange={(event) => update({ description: event.currentTarget.value })}
                  w={220}
                />
              </Locked>
            </>
            <>
              <Locked lock={lock("serviceDate")}>
                <TextInput
                  type="date"
                  aria-label="New transaction service date"
                  value={serviceDate}
                  onChange={(event) => update({ serviceDate: event.currentTarget.value })}
                  w={132}
                />
              </Locked>
            </>
            {showQty ? (
              <>
                <>
                  <Locked lock={lock("quantity")}>
                    <TextInput
                      aria-label="New transaction quantity"
                      value={draft.quantity}
                      inputMode="decimal"
                      onChange={(event) => update({ quantity: event.currentTarget.value })}
                      w={70}
                    />
                  </Locked>
                </>
                <>
                  <Locked lock={lock("unitofmeasure")}>
                    <NativeSelect
                      aria-label="New transaction units"
                      value={draft.unitofmeasure}
                      data={unitOptions(units)}
                      onChange={(event) => update({ unitofmeasure: event.currentTarget.value })}
                      w={90}
                    />
                  </Locked>
                </>
              </>
            ) : null}
            <>
              <Locked lock={lock("rate")}>
                <TextInput
                  aria-label="New transaction rate"
                  placeholder="0.00"
                  inputMode="decimal"
                  value={draft.rate}
                  onChange={(event) => update({ rate: event.currentTarget.value })}
                  w={90}
                />
              </Locked>
            </>
            <>
              <Locked lock={lock("amount")}>
                <Text size="sm" fw={500} component="span" aria-hidden>
                  Amount
                </Text>
                <Text size="sm" aria-label="New transaction amount" ta="right" miw={70}>
                  {amount === null ? "—" : formatAmount(amount)}
                </Text>
              </Locked>
            </>
          </Group>
        </Table.Td>
      </Table.Tr>
      {/* The buttons get a line of their own so they stay in view however wide the row grows. */}
      <Table.Tr bg="var(--mantine-color-teal-light)" aria-label="Buttons of the new transaction">
        <Table.Td colSpan={20} pt={0}>
          <Group gap={6} wrap="wrap">
            <Button size="xs" onClick={() => save(false)} loading={saving && pending === null}>
              Save
            </Button>
            <Button size="xs" variant="light" onClick={() => save(true)} disabled={saving}>
              Save &amp; New
            </Button>
            <Button size="xs" variant="default" onClick={props.onDone} disabled={saving}>
              Done
            </Button>
            <Text size="xs" c="dimmed">
              Ctrl+Enter saves and starts a new row; a locked column keeps its value.
            </Text>
            {problem ? (
              <Text size="sm" c="red" role="alert">
                {problem}
              </Text>
            ) : null}
          </Group>
        </Table.Td>
      </Table.Tr>
      <SaveFeedback
        failure={failure}
        forcing={saving}
        onDismiss={() => {
          setFailure(null);
          setPending(null);
        }}
        onForce={() => {
          if (pending) void send({ ...pending.body, force: true }, pending.andNew);
        }}
      />
    </>
  );
}
