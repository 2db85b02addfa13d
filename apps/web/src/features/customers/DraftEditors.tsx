import { FREQUENCY_LABELS, RECURRING_FREQUENCIES } from "@cyclebill/domain";
import { Group, SegmentedControl, Select, Stack, Text, TextInput } from "@mantine/core";
import {
  MONTH_OPTIONS,
  liveAmount,
  RECURRING_FIELDS,
  STORED_FIELDS,
  type DraftErrors,
  type RecurringDraft,
  type RecurringField,
  type StoredDraft,
  type StoredField,
} from "./charge-drafts";
import { CodePicker } from "../../shared/CodePicker";
import { unitOptions, type UnitOfMeasure } from "../codes/units-of-measure";

// The inputs of one stored amount or one recurring charge, laid out as a row of a form. Used by the
// add forms of the editor's tabs and by the Add Customer dialog.

export const FREQUENCY_OPTIONS = RECURRING_FREQUENCIES.map((frequency) => ({
  value: frequency,
  label: FREQUENCY_LABELS[frequency],
}));

export const FINANCE_TYPE_OPTIONS = [
  { value: "advance", label: "Advance" },
  { value: "arrears", label: "Arrears" },
];

/**
 * A field's error as shown: a message already shown on an earlier field of the row (the spec's
 * "must have a code, rate, start month, and end month") only marks this one.
 */
function shownError<K extends string>(
  errors: DraftErrors<K>,
  field: K,
  order: readonly K[],
): string | boolean {
  const message = errors[field];
  if (!message) return false;
  const earlier = order.slice(0, order.indexOf(field));
  return earlier.some((other) => errors[other] === message) ? true : message;
}

/** The live amount next to the inputs: quantity × rate, computed exactly. */
export function AmountPreview({
  rate,
  quantity,
  label = "Amount",
}: {
  rate: string;
  quantity: string;
  label?: string;
}) {
  return (
    <Stack gap={4} miw={96}>
      <Text size="sm" fw={500} component="span">
        {label}
      </Text>
      <Text
        size="sm"
        fw={600}
        h={36}
        lh="36px"
        style={{ fontVariantNumeric: "tabular-nums" }}
        aria-live="polite"
        data-testid="live-amount"
      >
        {liveAmount(rate, quantity)}
      </Text>
    </Stack>
  );
}

type PricedLine = Pick<StoredDraft, "code" | "description" | "rate" | "quantity">;

/** Code, description, rate and quantity: the part a stored amount and a recurring charge share. */
function PricedLineInputs({
  clientId,
  line,
  codeError,
  errorOf,
  quantityInputMode,
  onChange,
}: {
  clientId: number;
  line: PricedLine;
  codeError: string | undefined;
  errorOf: (field: "description" | "rate" | "quantity") => string | boolean;
  /** Recurring charges bill whole quantities. */
  quantityInputMode: "decimal" | "numeric";
  onChange: (patch: Partial<PricedLine>) => void;
}) {
  return (
    <>
      <div style={{ flex: "1 1 220px", minWidth: 200 }}>
        <CodePicker
          clientId={clientId}
          value={line.code}
          error={codeError}
          placeholder="Search codes"
          showType
          onChange={(code) =>
            // A new code offers its description unless one was typed.
            onChange({ code, description: line.description || code?.description || "" })
          }
        />
      </div>
      <TextInput
        label="Description"
        style={{ flex: "2 1 220px" }}
        value={line.description}
        error={errorOf("description")}
        onChange={(event) => onChange({ description: event.currentTarget.value })}
      />
      <TextInput
        label="Rate"
        w={110}
        inputMode="decimal"
        placeholder="0.00"
        value={line.rate}
        error={errorOf("rate")}
        onChange={(event) => onChange({ rate: event.currentTarget.value })}
      />
      <TextInput
        label="Quantity"
        w={90}
        inputMode={quantityInputMode}
        value={line.quantity}
        error={errorOf("quantity")}
        onChange={(event) => onChange({ quantity: event.currentTarget.value })}
      />
    </>
  );
}

export function StoredDraftInputs({
  clientId,
  draft,
  errors,
  units,
  onChange,
}: {
  clientId: number;
  draft: StoredDraft;
  errors: DraftErrors<StoredField>;
  units: readonly UnitOfMeasure[];
  onChange: (draft: StoredDraft) => void;
}) {
  const set = <K extends StoredField>(field: K, value: StoredDraft[K]) =>
    onChange({ ...draft, [field]: value });
  return (
    <Group align="flex-start" gap="sm" wrap="wrap">
      <PricedLineInputs
        clientId={clientId}
        line={draft}
        codeError={errors.code}
        errorOf={(field) => shownError(errors, field, STORED_FIELDS)}
        quantityInputMode="decimal"
        onChange={(patch) => onChange({ ...draft, ...patch })}
      />
      <Select
        label="Units"
        w={110}
        data={unitOptions(units)}
        value={draft.unitofmeasure}
        error={shownError(errors, "unitofmeasure", STORED_FIELDS)}
        allowDeselect={false}
        onChange={(value) => value && set("unitofmeasure", value)}
      />
      <AmountPreview rate={draft.rate} quantity={draft.quantity} />
    </Group>
  );
}

export function RecurringDraftInputs({
  clientId,
  draft,
  errors,
  onChange,
}: {
  clientId: number;
  draft: RecurringDraft;
  errors: DraftErrors<RecurringField>;
  onChange: (draft: RecurringDraft) => void;
}) {
  const set = <K extends RecurringField>(field: K, value: RecurringDraft[K]) =>
    onChange({ ...draft, [field]: value });
  return (
    <Stack gap="sm">
      <Group align="flex-start" gap="sm" wrap="wrap">
        <PricedLineInputs
          clientId={clientId}
          line={draft}
          codeError={errors.code}
          errorOf={(field) => shownError(errors, field, RECURRING_FIELDS)}
          quantityInputMode="numeric"
          onChange={(patch) => onChange({ ...draft, ...patch })}
        />
        <AmountPreview rate={draft.rate} quantity={draft.quantity} />
      </Group>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <Select
          label="Start month"
          w={150}
          data={MONTH_OPTIONS}
          value={draft.start_month || null}
          error={shownError(errors, "start_month", RECURRING_FIELDS)}
          // The spec requires both months: picking the chosen month again keeps it (no silent clear).
          allowDeselect={false}
          onChange={(value) => value && set("start_month", value)}
        />
        <Select
          label="End month"
          w={150}
          data={MONTH_OPTIONS}
          value={draft.end_month || null}
          error={shownError(errors, "end_month", RECURRING_FIELDS)}
          // The spec requires both months: picking the chosen month again keeps it (no silent clear).
          allowDeselect={false}
          onChange={(value) => value && set("end_month", value)}
        />
        <Select
          label="Frequency"
          w={170}
          data={FREQUENCY_OPTIONS}
          value={draft.frequency}
          error={shownError(errors, "frequency", RECURRING_FIELDS)}
          allowDeselect={false}
          onChange={(value) => value && set("frequency", value as RecurringDraft["frequency"])}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} component="span">
            Billed in
          </Text>
          <SegmentedControl
            aria-label="Billed in"
            data={FINANCE_TYPE_OPTIONS}
            value={draft.arrears ? "arrears" : "advance"}
            onChange={(value) => set("arrears", value === "arrears")}
          />
        </Stack>
        <TextInput
          label="Start date"
          description="Blank: from the day it is added"
          type="date"
          w={170}
          value={draft.start_date}
          error={shownError(errors, "start_date", RECURRING_FIELDS)}
          onChange={(event) => set("start_date", event.currentTarget.value)}
        />
      </Group>
    </Stack>
  );
}
