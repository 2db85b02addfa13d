import { NO_GROUP_SELECTED_MESSAGE } from "@cyclebill/domain";
import { Alert, Button, Group, NumberInput, Paper, Select, Stack, Table, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { ApiError, allMessages, describeApiError } from "../../api/api-client";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { EmptyRow, LoadingRows } from "../shell/LoadingRows";
import {
  useGroupOptions,
  useGroupSize,
  useMemberships,
  useRemoveMembership,
  useSaveMembership,
  type BillIndicatorFlag,
  type Membership,
} from "./customer-children-api";

export const PROCESSING_LABELS: Record<BillIndicatorFlag, string> = {
  standard: "Standard",
  skip: "Skip",
  pause: "Pause",
};
const PROCESSING_OPTIONS = (Object.keys(PROCESSING_LABELS) as BillIndicatorFlag[]).map((flag) => ({
  value: flag,
  label: PROCESSING_LABELS[flag],
}));

/**
 * The stop (0-based) for a typed position, by Group Admin's rules: positions run from 1 to the group's
 * size (plus one when adding); a larger value clamps to the end. When adding, empty or not a number
 * means the end (undefined lets the server place it); when moving, it falls back to the last position.
 */
export function stopFor(input: string | number, groupSize: number, adding: boolean): number | undefined {
  const text = String(input).trim();
  const max = Math.max(1, adding ? groupSize + 1 : groupSize);
  if (!/^-?\d+$/.test(text)) return adding ? undefined : max - 1;
  return Math.min(Math.max(1, Number(text)), max) - 1;
}

/** Groups: the customer's group memberships with position and processing type; add, change, remove. */
export function CustomerGroupsTab({
  clientId,
  customerId,
  customerName,
}: {
  clientId: number;
  customerId: number;
  customerName: string;
}) {
  const memberships = useMemberships(clientId, customerId);
  const groups = useGroupOptions(clientId);
  const rows = memberships.data?.results ?? [];
  const [removing, setRemoving] = useState<Membership | null>(null);
  const remove = useRemoveMembership(clientId);
  const joined = new Set(rows.map((row) => row.route));
  const available = (groups.data?.results ?? []).filter((group) => !joined.has(group.id));

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="sm">
        <AddToGroupForm
          clientId={clientId}
          customerId={customerId}
          options={available.map((group) => ({ value: String(group.id), label: group.route_name }))}
          noGroupsAtAll={groups.isSuccess && groups.data.results.length === 0}
        />
      </Paper>
      <Paper withBorder p="md" radius="sm">
        <Title order={3} size="h5" mb="sm">
          Groups of {customerName}
        </Title>
        {memberships.isError ? (
          <Alert color="red" title="The groups could not be loaded">
            {describeApiError(memberships.error)}
          </Alert>
        ) : (
          <Table.ScrollContainer minWidth={600}>
            <Table verticalSpacing="xs" striped aria-label="Group memberships">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Group</Table.Th>
                  <Table.Th w={170}>Position</Table.Th>
                  <Table.Th w={190}>Processing</Table.Th>
                  <Table.Th w={190} ta="right">
                    Actions
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {memberships.isPending ? (
                  <LoadingRows columns={4} rows={2} />
                ) : rows.length === 0 ? (
                  <EmptyRow columns={4} look="compact">
                    Not in any group yet.
                  </EmptyRow>
                ) : (
                  rows.map((row) => (
                    <MembershipRow
                      key={row.routeplan_id}
                      clientId={clientId}
                      row={row}
                      onRemove={() => setRemoving(row)}
                    />
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>

      <ConfirmDeleteDialog
        opened={removing !== null}
        title="Remove from group"
        confirmLabel="Remove"
        loading={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.routeplan_id, {
            onSuccess: () => {
              notifications.show({ color: "teal", message: `Removed from ${removing.route_name}.` });
              setRemoving(null);
            },
          });
        }}
      >
        Remove {customerName} from <strong>{removing?.route_name}</strong>? The customers after it move up one
        position.
      </ConfirmDeleteDialog>
    </Stack>
  );
}

function AddToGroupForm({
  clientId,
  customerId,
  options,
  noGroupsAtAll,
}: {
  clientId: number;
  customerId: number;
  options: { value: string; label: string }[];
  noGroupsAtAll: boolean;
}) {
  const save = useSaveMembership(clientId);
  const [groupId, setGroupId] = useState<string | null>(null);
  const [position, setPosition] = useState<string | number>("");
  const [flag, setFlag] = useState<BillIndicatorFlag>("standard");
  const [problem, setProblem] = useState<string | null>(null);
  const size = useGroupSize(clientId, groupId === null ? null : Number(groupId));
  const max = size === null ? undefined : size + 1;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (groupId === null) {
      setProblem(NO_GROUP_SELECTED_MESSAGE);
      return;
    }
    setProblem(null);
    const group = options.find((option) => option.value === groupId)?.label ?? "the group";
    save.mutate(
      {
        id: null,
        body: {
          route: Number(groupId),
          customer: customerId,
          stop: stopFor(position, size ?? 0, true),
          bill_indicator_flag: flag,
        },
      },
      {
        onSuccess: (plan) => {
          notifications.show({
            color: "teal",
            message: `Added to ${plan.route_name || group} at position ${String(plan.position ?? plan.stop + 1)}.`,
          });
          setGroupId(null);
          setPosition("");
          setFlag("standard");
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 400)
            setProblem(allMessages(error.body)[0] ?? null);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Add to a group">
      <Title order={3} size="h5" mb={2}>
        Add to a group
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        Groups (routes) order customers for group transactions and reports. Skip leaves the customer out of a
        run; Pause holds it until changed back.
      </Text>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <Select
          label="Group"
          placeholder={
            noGroupsAtAll ? "No groups yet" : options.length === 0 ? "In every group" : "Choose a group"
          }
          data={options}
          value={groupId}
          searchable
          clearable
          w={260}
          onChange={(value) => {
            setGroupId(value);
            setProblem(null);
          }}
        />
        <NumberInput
          label={max === undefined ? "Position" : `Position (1 to ${String(max)})`}
          placeholder={max === undefined ? "Last" : `Last (${String(max)})`}
          min={1}
          max={max}
          clampBehavior="blur"
          allowDecimal={false}
          allowNegative={false}
          value={position}
          onChange={setPosition}
          w={170}
        />
        <Select
          label="Processing"
          data={PROCESSING_OPTIONS}
          value={flag}
          allowDeselect={false}
          onChange={(value) => setFlag((value as BillIndicatorFlag | null) ?? "standard")}
          w={170}
        />
        <Button type="submit" mt={25} loading={save.isPending}>
          Add to Group
        </Button>
      </Group>
      {problem ? (
        <Alert
          color="red"
          variant="light"
          mt="sm"
          withCloseButton
          onClose={() => setProblem(null)}
          role="alert"
        >
          {problem}
        </Alert>
      ) : null}
    </form>
  );
}

function MembershipRow({
  clientId,
  row,
  onRemove,
}: {
  clientId: number;
  row: Membership;
  onRemove: () => void;
}) {
  const save = useSaveMembership(clientId);
  const position0 = row.position ?? row.stop + 1;
  // What the user changed and has not saved yet; the server's values show otherwise (it renumbers).
  const [edit, setEdit] = useState<{ position?: string | number; flag?: BillIndicatorFlag }>({});
  const position = edit.position ?? position0;
  const flag = edit.flag ?? row.bill_indicator_flag;
  const setPosition = (next: string | number) => setEdit((current) => ({ ...current, position: next }));
  const setFlag = (next: BillIndicatorFlag) => setEdit((current) => ({ ...current, flag: next }));
  const [problem, setProblem] = useState<string | null>(null);
  const size = useGroupSize(clientId, row.route);
  const changed = String(position) !== String(position0) || flag !== row.bill_indicator_flag;

  const apply = () => {
    setProblem(null);
    save.mutate(
      {
        id: row.routeplan_id,
        body: {
          route: row.route,
          customer: row.customer,
          stop: stopFor(position, size ?? position0, false),
          bill_indicator_flag: flag,
        },
      },
      {
        onSuccess: (plan) => {
          setEdit({});
          notifications.show({
            color: "teal",
            message: `${plan.route_name || row.route_name}: position ${String(plan.position ?? plan.stop + 1)}, ${PROCESSING_LABELS[plan.bill_indicator_flag].toLowerCase()}.`,
          });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 400)
            setProblem(allMessages(error.body)[0] ?? null);
        },
      },
    );
  };

  return (
    <Table.Tr>
      <Table.Td>
        <Stack gap={2}>
          <Text fw={500} size="sm">
            {row.route_name}
          </Text>
          {problem ? (
            <Text size="xs" c="red">
              {problem}
            </Text>
          ) : null}
        </Stack>
      </Table.Td>
      <Table.Td>
        <NumberInput
          aria-label={`Position in ${row.route_name}`}
          size="xs"
          min={1}
          max={size ?? undefined}
          clampBehavior="blur"
          allowDecimal={false}
          allowNegative={false}
          value={position}
          onChange={setPosition}
          rightSection={
            size === null ? null : (
              <Text size="xs" c="dimmed" pr={6}>
                of {size}
              </Text>
            )
          }
          rightSectionWidth={48}
        />
      </Table.Td>
      <Table.Td>
        <Select
          aria-label={`Processing in ${row.route_name}`}
          size="xs"
          data={PROCESSING_OPTIONS}
          value={flag}
          allowDeselect={false}
          onChange={(value) => setFlag((value as BillIndicatorFlag | null) ?? row.bill_indicator_flag)}
          w={140}
        />
      </Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Button
            size="compact-sm"
            variant={changed ? "filled" : "subtle"}
            disabled={!changed}
            loading={save.isPending}
            onClick={apply}
            aria-label={`Save changes to ${row.route_name}`}
          >
            Save
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            onClick={onRemove}
            aria-label={`Remove from ${row.route_name}`}
          >
            Remove
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
