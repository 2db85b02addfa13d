import {
  Box,
  Button,
  Card,
  Group,
  Loader,
  LoadingOverlay,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useDeferredValue, useEffect, useState, type ReactNode } from "react";
import { DUPLICATE_TRANSACTION_MESSAGE } from "@cyclebill/domain";
import { ApiError, allMessages, describeApiError } from "../../api/api-client";
import { formatAmount } from "../../lib/format";
import { CodePicker } from "../../shared/CodePicker";
import { useUnitsOfMeasure } from "../codes/units-of-measure";
import { BatchMembersTable } from "./BatchMembersTable";
import {
  BatchDuplicateDialog,
  BatchLeftOutNotice,
  BatchOutcome,
  type LeftOutMember,
  type Outcome,
} from "./BatchOutcome";
import {
  BUSY_MESSAGE,
  MISSING_CODE_MESSAGE,
  MISSING_GROUP_MESSAGE,
  lineAmount,
  memberRefusal,
  parseAmount,
  parseQuantity,
  sumLines,
  todayIso,
  usePostBatch,
  type BatchBody,
  type BatchMember,
  type BatchType,
  type RowOverride,
} from "./group-batch-api";
import type { PickedCode } from "./pickers";
import { usePostingDate } from "./transactions-api";
import { matchesMember, useBatchRows } from "./use-batch-rows";
import { countOf } from "../../lib/plural";

export type AddBatchFormProps = {
  clientId: number;
  transactionType: BatchType;
  /** The chosen group (route batches only). */
  group: { id: number; name: string } | null;
  members: readonly BatchMember[];
  membersLoading: boolean;
  /** Changes when another list is shown (another group): omissions and row amounts start afresh. */
  listKey: string;
  /** Fields shown before the code: the group picker. */
  leadingFields?: ReactNode;
  /** Shown in the table when there is nobody to list. */
  emptyText: string;
};

/**
 * Code, default amount, date of service and optional quantity and units over a list of customers,
 * each included or omitted and priced on its own row; Add Transactions posts them as one batch.
 */
export function AddBatchForm(props: AddBatchFormProps) {
  const { clientId, transactionType, group, members, listKey } = props;
  const units = useUnitsOfMeasure();
  const post = usePostBatch(clientId);
  const [code, setCode] = useState<PickedCode | null>(null);
  const [defaultAmount, setDefaultAmount] = useState("");
  // "" until the clerk picks a date: the server's posting date (the first open day once a run
  // closed the books through today) is shown and sent.
  const [pickedDate, setPickedDate] = useState("");
  const postingDate = usePostingDate(clientId).data?.service_date;
  const serviceDate = pickedDate || postingDate || todayIso();
  const [showQty, setShowQty] = useState(false);
  const [defaultQuantity, setDefaultQuantity] = useState("1");
  const [unit, setUnit] = useState("1");
  const [filter, setFilter] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  // A batch the server refused as a duplicate, waiting for the clerk's Yes (sent again with force).
  const [duplicate, setDuplicate] = useState<{ body: BatchBody; message: string } | null>(null);
  const rows = useBatchRows(listKey);
  const deferredFilter = useDeferredValue(filter.trim());

  // Leaving or reloading while the batch is posted would hide its outcome.
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [busy]);

  const quantityOf = (override: RowOverride | undefined) =>
    showQty ? (override?.quantity ?? defaultQuantity) : "1";
  const amountOf = (override: RowOverride | undefined) => override?.amount ?? defaultAmount;

  const codeType = code?.code_type ?? null;
  const included = members.filter((member) => !rows.omitted.has(member.id));
  // The server's posting rule: whoever it would refuse is listed apart, not counted or priced.
  const leftOut: LeftOutMember[] = [];
  const billed: BatchMember[] = [];
  for (const member of included) {
    const reason = memberRefusal(member, codeType);
    if (reason === null) billed.push(member);
    else leftOut.push({ member, reason });
  }
  const includedLines = billed.map((member) => {
    const override = rows.overrides.get(member.id);
    return lineAmount(amountOf(override), quantityOf(override));
  });
  const invalidRows = includedLines.filter((line) => line === null).length;
  const total = sumLines(includedLines.filter((line): line is string => line !== null));
  const shown = members.filter((member) => matchesMember(member, deferredFilter));

  const amountError =
    submitted && parseAmount(defaultAmount) === null ? "Enter an amount of 0 or more." : undefined;
  const quantityError =
    submitted && showQty && parseQuantity(defaultQuantity) === null ? "Enter a quantity." : undefined;

  const fail = (message: string) => notifications.show({ color: "red", message });

  const submit = async () => {
    if (busy) return;
    setSubmitted(true);
    if (code === null) return fail(MISSING_CODE_MESSAGE);
    if (transactionType === "route" && group === null) return fail(MISSING_GROUP_MESSAGE);
    const amount = parseAmount(defaultAmount);
    const quantity = showQty ? parseQuantity(defaultQuantity) : "1";
    if (amount === null || quantity === null) return fail("Correct the default amount before adding.");
    if (invalidRows > 0) return fail("Correct the highlighted amounts before adding.");
    const customerAmounts: BatchBody["customer_amounts"] = [];
    for (const member of billed) {
      const override = rows.overrides.get(member.id);
      const rowAmount = parseAmount(amountOf(override));
      const rowQuantity = parseQuantity(quantityOf(override));
      if (rowAmount === null || rowQuantity === null)
        return fail("Correct the highlighted amounts before adding.");
      if (rowAmount !== amount || rowQuantity !== quantity) {
        customerAmounts.push({ customer: member.id, amount: rowAmount, quantity: rowQuantity });
      }
    }
    const body: BatchBody = {
      client: clientId,
      transaction_type: transactionType,
      ...(group ? { route: group.id } : {}),
      customers: included.map((member) => member.id),
      code: code.id,
      service_date: serviceDate,
      amount,
      quantity,
      unitofmeasure: showQty ? Number(unit) : 1,
      customer_amounts: customerAmounts,
    };
    await send(body);
  };

  const send = async (body: BatchBody) => {
    // Spec point 4: the previous outcome is cleared when saving starts.
    setOutcome(null);
    setBusy(true);
    try {
      const result = await post.mutateAsync(body);
      setOutcome({ kind: "created", result });
      // Added: the form starts afresh, so a second press cannot add the same batch again.
      setCode(null);
      setDefaultAmount("");
      setDefaultQuantity("1");
      setSubmitted(false);
      rows.reset();
    } catch (error) {
      const nonField =
        error instanceof ApiError
          ? allMessages((error.body as { non_field_errors?: unknown }).non_field_errors)
          : [];
      if (nonField[0] === DUPLICATE_TRANSACTION_MESSAGE) {
        setDuplicate({ body, message: nonField.slice(1).join(" ") });
      } else if (!(error instanceof ApiError) || error.handledByCaller) {
        // A failed save only ends the busy state; the message is the server's (or the app-wide alert's).
        setOutcome({ kind: "failed", message: describeApiError(error) });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box pos="relative">
      <LoadingOverlay
        visible={busy}
        zIndex={300}
        overlayProps={{ blur: 1 }}
        loaderProps={{
          children: (
            <Card withBorder shadow="md" padding="lg" maw={420} role="status">
              <Group gap="md" wrap="nowrap">
                <Loader size="sm" />
                <Text size="sm" fw={500}>
                  {BUSY_MESSAGE}
                </Text>
              </Group>
            </Card>
          ),
        }}
      />
      <Stack gap="md">
        <Card withBorder padding="md">
          <Stack gap="sm">
            <Group align="flex-start" gap="md" wrap="wrap">
              {props.leadingFields}
              <Box w={260}>
                <CodePicker
                  clientId={clientId}
                  label="Code"
                  showLabel
                  width={180}
                  value={code}
                  onChange={setCode}
                  error={submitted && code === null ? "Choose a code." : undefined}
                />
              </Box>
              <TextInput
                label={showQty ? "Default rate" : "Default amount"}
                placeholder="0.00"
                inputMode="decimal"
                w={140}
                value={defaultAmount}
                error={amountError}
                onChange={(event) => setDefaultAmount(event.currentTarget.value)}
              />
              <TextInput
                type="date"
                label="Date of service"
                w={170}
                value={serviceDate}
                onChange={(event) => setPickedDate(event.currentTarget.value)}
              />
              {showQty ? (
                <>
                  <TextInput
                    label="Default quantity"
                    inputMode="decimal"
                    w={130}
                    value={defaultQuantity}
                    error={quantityError}
                    onChange={(event) => setDefaultQuantity(event.currentTarget.value)}
                  />
                  <Select
                    label="Units"
                    w={130}
                    data={units.map((item) => ({ value: String(item.id), label: item.name }))}
                    value={unit}
                    allowDeselect={false}
                    onChange={(value) => setUnit(value ?? "1")}
                  />
                </>
              ) : null}
            </Group>
            <Group justify="space-between" align="center" gap="md" wrap="wrap">
              <Switch
                label="Show Qty and Units"
                checked={showQty}
                onChange={(event) => setShowQty(event.currentTarget.checked)}
              />
              <Group gap="md" wrap="wrap">
                <Text size="sm" c="dimmed" aria-live="polite">
                  {billed.length} of {countOf(members.length, "customer")} included · total{" "}
                  {formatAmount(total)}
                </Text>
                <Button onClick={() => void submit()} loading={busy}>
                  Add Transactions
                </Button>
              </Group>
            </Group>
          </Stack>
        </Card>

        <BatchOutcome outcome={outcome} onDismiss={() => setOutcome(null)} />
        <BatchDuplicateDialog
          message={duplicate?.message ?? null}
          onDismiss={() => setDuplicate(null)}
          onForce={() => {
            // Closed first: the busy overlay shows while the batch is added again.
            setDuplicate(null);
            if (duplicate) void send({ ...duplicate.body, force: true });
          }}
        />

        <BatchLeftOutNotice leftOut={leftOut} />

        <Group justify="space-between" align="flex-end" gap="md" wrap="wrap">
          <TextInput
            label="Filter customers"
            placeholder="Name or number"
            w={260}
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
          />
          <Group gap="xs">
            {([false, true] as const).map((omit) => (
              <Button
                key={String(omit)}
                variant="default"
                size="xs"
                disabled={shown.length === 0}
                onClick={() =>
                  rows.setOmitted(
                    shown.map((member) => member.id),
                    omit,
                  )
                }
              >
                {omit ? "Omit all" : "Include all"}
                {deferredFilter ? " shown" : ""}
              </Button>
            ))}
          </Group>
        </Group>

        <BatchMembersTable
          transactionType={transactionType}
          members={members}
          shown={shown}
          membersLoading={props.membersLoading}
          emptyText={props.emptyText}
          rows={rows}
          refusalOf={(member) => memberRefusal(member, codeType)}
          showQty={showQty}
          defaultAmount={defaultAmount}
          unitName={units.find((item) => String(item.id) === unit)?.name ?? ""}
          submitted={submitted}
          amountOf={amountOf}
          quantityOf={quantityOf}
        />
      </Stack>
    </Box>
  );
}
