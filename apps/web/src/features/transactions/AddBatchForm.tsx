import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Loader,
  LoadingOverlay,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useDeferredValue, useEffect, useState, type ReactNode } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import { formatAmount } from "../../lib/format";
import { useUnitsOfMeasure } from "../codes/units-of-measure";
import {
  BUSY_MESSAGE,
  MISSING_CODE_MESSAGE,
  MISSING_GROUP_MESSAGE,
  ZERO_CREATED_MESSAGE,
  batchResultMessage,
  lineAmount,
  parseAmount,
  parseQuantity,
  refusedNote,
  sumLines,
  todayIso,
  usePostBatch,
  type BatchBody,
  type BatchMember,
  type BatchResult,
  type BatchType,
  type RowOverride,
} from "./group-batch-api";
import { CodePicker } from "../../shared/CodePicker";
import type { PickedCode } from "./pickers";

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

type RowState = { key: string; omitted: ReadonlySet<number>; overrides: ReadonlyMap<number, RowOverride> };

type Outcome = { kind: "created"; result: BatchResult } | { kind: "failed"; message: string } | null;

function emptyRows(key: string): RowState {
  return { key, omitted: new Set(), overrides: new Map() };
}

function matches(member: BatchMember, filter: string): boolean {
  if (filter === "") return true;
  const needle = filter.toLowerCase();
  return member.customer_name.toLowerCase().includes(needle) || String(member.customer_no).includes(needle);
}

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
  const [serviceDate, setServiceDate] = useState(todayIso);
  const [showQty, setShowQty] = useState(false);
  const [defaultQuantity, setDefaultQuantity] = useState("1");
  const [unit, setUnit] = useState("1");
  const [filter, setFilter] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [rowState, setRowState] = useState<RowState>(() => emptyRows(listKey));
  const rows = rowState.key === listKey ? rowState : emptyRows(listKey);
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

  const included = members.filter((member) => !rows.omitted.has(member.id));
  const includedLines = included.map((member) => {
    const override = rows.overrides.get(member.id);
    return lineAmount(amountOf(override), quantityOf(override));
  });
  const invalidRows = includedLines.filter((line) => line === null).length;
  const total = sumLines(includedLines.filter((line): line is string => line !== null));
  const shown = members.filter((member) => matches(member, deferredFilter));

  const amountError =
    submitted && parseAmount(defaultAmount) === null ? "Enter an amount of 0 or more." : undefined;
  const quantityError =
    submitted && showQty && parseQuantity(defaultQuantity) === null ? "Enter a quantity." : undefined;

  const updateRows = (change: (current: RowState) => RowState) =>
    setRowState((current) => change(current.key === listKey ? current : emptyRows(listKey)));

  const setOmitted = (ids: readonly number[], omit: boolean) =>
    updateRows((current) => {
      const omitted = new Set(current.omitted);
      for (const id of ids) {
        if (omit) omitted.add(id);
        else omitted.delete(id);
      }
      return { ...current, omitted };
    });

  const setOverride = (id: number, change: RowOverride) =>
    updateRows((current) => {
      const overrides = new Map(current.overrides);
      overrides.set(id, { ...overrides.get(id), ...change });
      return { ...current, overrides };
    });

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
    if (serviceDate === "") return fail("Choose a date of service.");
    const customerAmounts: BatchBody["customer_amounts"] = [];
    for (const member of included) {
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
    // Spec point 4: the previous outcome is cleared when saving starts.
    setOutcome(null);
    setBusy(true);
    try {
      const result = await post.mutateAsync(body);
      setOutcome({ kind: "created", result });
    } catch (error) {
      // A failed save only ends the busy state; the message is the server's (or the app-wide alert's).
      if (!(error instanceof ApiError) || error.handledByCaller) {
        setOutcome({ kind: "failed", message: describeApiError(error) });
      }
    } finally {
      setBusy(false);
    }
  };

  // The customers left out go on a line of their own, after the spec's sentence.
  const skippedNote = (result: BatchResult) => {
    const note = refusedNote(result).trim();
    return note === "" ? null : (
      <Text size="sm" mt={6}>
        {note}
      </Text>
    );
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
                error={submitted && serviceDate === "" ? "Choose a date." : undefined}
                onChange={(event) => setServiceDate(event.currentTarget.value)}
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
                  {included.length} of {members.length} customers included · total {formatAmount(total)}
                </Text>
                <Button onClick={() => void submit()} loading={busy}>
                  Add Transactions
                </Button>
              </Group>
            </Group>
          </Stack>
        </Card>

        {outcome?.kind === "created" && outcome.result.count > 0 ? (
          <Alert
            color="teal"
            title="Transactions created"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setOutcome(null)}
          >
            {batchResultMessage(outcome.result)}
            {skippedNote(outcome.result)}
          </Alert>
        ) : null}
        {outcome?.kind === "created" && outcome.result.count === 0 ? (
          <Alert
            color="yellow"
            title="No transactions created"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setOutcome(null)}
          >
            {ZERO_CREATED_MESSAGE}
            {skippedNote(outcome.result)}
          </Alert>
        ) : null}
        {outcome?.kind === "failed" ? (
          <Alert
            color="red"
            title="The transactions were not created"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setOutcome(null)}
          >
            {outcome.message}
          </Alert>
        ) : null}

        <Group justify="space-between" align="flex-end" gap="md" wrap="wrap">
          <TextInput
            label="Filter customers"
            placeholder="Name or number"
            w={260}
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
          />
          <Group gap="xs">
            <Button
              variant="default"
              size="xs"
              disabled={shown.length === 0}
              onClick={() =>
                setOmitted(
                  shown.map((member) => member.id),
                  false,
                )
              }
            >
              Include all{deferredFilter ? " shown" : ""}
            </Button>
            <Button
              variant="default"
              size="xs"
              disabled={shown.length === 0}
              onClick={() =>
                setOmitted(
                  shown.map((member) => member.id),
                  true,
                )
              }
            >
              Omit all{deferredFilter ? " shown" : ""}
            </Button>
          </Group>
        </Group>

        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover aria-label="Customers to bill" verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={130}>Include</Table.Th>
                {transactionType === "route" ? <Table.Th w={60}>Stop</Table.Th> : null}
                <Table.Th w={120}>Customer No.</Table.Th>
                <Table.Th>Customer</Table.Th>
                <Table.Th w={130}>{showQty ? "Rate" : "Amount"}</Table.Th>
                {showQty ? (
                  <>
                    <Table.Th w={100}>Qty</Table.Th>
                    <Table.Th w={90}>Units</Table.Th>
                    <Table.Th w={110} ta="right">
                      Amount
                    </Table.Th>
                  </>
                ) : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {props.membersLoading ? (
                <Table.Tr>
                  <Table.Td colSpan={8}>
                    <Group gap="xs">
                      <Loader size="xs" />
                      <Text size="sm" c="dimmed">
                        Loading customers...
                      </Text>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ) : shown.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={8}>
                    <Text size="sm" c="dimmed">
                      {members.length === 0 ? props.emptyText : "No customers match the filter."}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                shown.map((member) => {
                  const omitted = rows.omitted.has(member.id);
                  const override = rows.overrides.get(member.id);
                  const amount = amountOf(override);
                  const quantity = quantityOf(override);
                  const line = lineAmount(amount, quantity);
                  return (
                    <Table.Tr key={member.id} style={omitted ? { opacity: 0.55 } : undefined}>
                      <Table.Td>
                        <Switch
                          size="sm"
                          label={omitted ? "Omitted" : "Included"}
                          checked={!omitted}
                          onChange={(event) => setOmitted([member.id], !event.currentTarget.checked)}
                        />
                      </Table.Td>
                      {transactionType === "route" ? <Table.Td>{member.position ?? ""}</Table.Td> : null}
                      <Table.Td>{member.customer_no}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Text size="sm" lineClamp={1} title={member.customer_name}>
                            {member.customer_name}
                          </Text>
                          {member.archived ? (
                            <Badge
                              color="dark"
                              variant="light"
                              size="xs"
                              tt="none"
                              title="The server refuses entries for an archived customer"
                            >
                              Archived, will be left out
                            </Badge>
                          ) : member.delete_flag && code?.code_type === "charge" ? (
                            <Badge color="orange" variant="light" size="xs" title="Takes no new charges">
                              Marked for deletion
                            </Badge>
                          ) : null}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <TextInput
                          size="xs"
                          aria-label={`${showQty ? "Rate" : "Amount"} for ${member.customer_name}`}
                          placeholder={defaultAmount || "0.00"}
                          inputMode="decimal"
                          value={amount}
                          disabled={omitted}
                          error={!omitted && submitted && parseAmount(amount) === null}
                          onChange={(event) => setOverride(member.id, { amount: event.currentTarget.value })}
                        />
                      </Table.Td>
                      {showQty ? (
                        <>
                          <Table.Td>
                            <TextInput
                              size="xs"
                              aria-label={`Quantity for ${member.customer_name}`}
                              inputMode="decimal"
                              value={quantity}
                              disabled={omitted}
                              error={!omitted && submitted && parseQuantity(quantity) === null}
                              onChange={(event) =>
                                setOverride(member.id, { quantity: event.currentTarget.value })
                              }
                            />
                          </Table.Td>
                          <Table.Td>{units.find((item) => String(item.id) === unit)?.name ?? ""}</Table.Td>
                          <Table.Td ta="right">{line === null ? "—" : formatAmount(line)}</Table.Td>
                        </>
                      ) : null}
                    </Table.Tr>
                  );
                })
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Box>
  );
}
