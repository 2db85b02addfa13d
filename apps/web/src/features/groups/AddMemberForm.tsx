import { NO_GROUP_SELECTED_MESSAGE, routePlanInputSchema } from "@cyclebill/domain";
import { Alert, Button, NumberInput, Select, SimpleGrid, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { ApiError, allMessages, apiFetch } from "../../api/api-client";
import { fieldErrorsFromBody } from "../../api/field-errors";
import { customerLabel, type CustomerMatch } from "../customers/CustomerSelect";
import { TypeaheadSelect, type TypeaheadPage } from "../shell/TypeaheadSelect";
import { BILL_INDICATOR_OPTIONS } from "./MemberStatus";
import { maxPosition, stopForPosition } from "./group-positions";
import { useAddMember, type BillIndicatorFlag, type Group, type RoutePlan } from "./groups-api";

type Picked = { id: number; label: string };

/** Adds a customer to a group at a position (1 to size + 1; empty = last) with a processing status. */
export function AddMemberForm({
  clientId,
  groups,
  group,
  members,
  onSelectGroup,
}: {
  clientId: number;
  groups: readonly Group[];
  group: Group | null;
  members: readonly RoutePlan[];
  onSelectGroup: (groupId: number | null) => void;
}) {
  const add = useAddMember(clientId);
  const [customer, setCustomer] = useState<Picked | null>(null);
  const [position, setPosition] = useState<string | number>("");
  const [flag, setFlag] = useState<BillIndicatorFlag>("standard");
  const [customerError, setCustomerError] = useState<string | undefined>();
  const [problem, setProblem] = useState<string | null>(null);
  // A problem belongs to the group it was found for: picking another group (here or in the list) clears it.
  const [problemGroupId, setProblemGroupId] = useState(group?.id ?? null);
  if (problemGroupId !== (group?.id ?? null)) {
    setProblemGroupId(group?.id ?? null);
    setProblem(null);
  }
  const size = members.length;
  const memberIds = new Set(members.map((member) => member.customer));

  const search = (query: string, signal: AbortSignal) =>
    apiFetch<TypeaheadPage<CustomerMatch>>("/typeahead/customers/", {
      query: { client_id: clientId, query },
      signal,
    });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const stop = stopForPosition(position, size, true);
    const result = validateMember(group?.id ?? null, customer?.id ?? null, stop, flag);
    setCustomerError(result.customer);
    setProblem(result.route ?? null);
    if (result.route || result.customer || !group || !customer) return;

    add.mutate(
      { route: group.id, customer: customer.id, stop, bill_indicator_flag: flag },
      {
        onSuccess: (plan) => {
          notifications.show({
            color: "teal",
            message: `${customer.label} was added to ${plan.route_name} at position ${String(plan.position)}.`,
          });
          setCustomer(null);
          setPosition("");
        },
        onError: (error) => {
          if (!(error instanceof ApiError) || error.status !== 400) return;
          const fields = fieldErrorsFromBody(error.body, ["customer", "route", "stop"] as const);
          setCustomerError(fields.customer);
          setProblem(
            fields.route ?? fields.stop ?? (fields.customer ? null : (allMessages(error.body)[0] ?? null)),
          );
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Add a customer to a group">
      <Stack gap="sm">
        <Text fw={600} size="sm">
          Add a customer
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label="Group"
            placeholder="Choose a group"
            data={groups.map((candidate) => ({ value: String(candidate.id), label: candidate.route_name }))}
            value={group ? String(group.id) : null}
            searchable
            clearable
            onChange={(value) => {
              setProblem(null);
              onSelectGroup(value === null ? null : Number(value));
            }}
          />
          <TypeaheadSelect<CustomerMatch>
            label="Customer"
            showLabel
            placeholder="Search by name or number"
            selectedLabel={customer?.label ?? null}
            queryKey={["customers", "typeahead", clientId]}
            search={search}
            getId={(match) => match.id}
            error={customerError}
            renderOption={(match) => (
              <Text size="sm" c={memberIds.has(match.id) ? "dimmed" : undefined}>
                {customerLabel(match)}
                {memberIds.has(match.id) ? " · already in this group" : ""}
              </Text>
            )}
            onSelect={(match) => {
              setCustomerError(undefined);
              setCustomer(match ? { id: match.id, label: customerLabel(match) } : null);
            }}
          />
          <NumberInput
            label={group ? `Position (1 to ${String(maxPosition(size, true))})` : "Position"}
            placeholder={`Last (${String(size + 1)})`}
            min={1}
            max={maxPosition(size, true)}
            clampBehavior="blur"
            allowDecimal={false}
            allowNegative={false}
            value={position}
            onChange={setPosition}
          />
          <Select
            label="Processing status"
            data={BILL_INDICATOR_OPTIONS}
            allowDeselect={false}
            value={flag}
            onChange={(value) => setFlag((value as BillIndicatorFlag | null) ?? "standard")}
          />
        </SimpleGrid>
        {problem ? (
          <Alert color="red" variant="light" withCloseButton onClose={() => setProblem(null)}>
            {problem}
          </Alert>
        ) : null}
        <div>
          <Button type="submit" loading={add.isPending}>
            Add Customer
          </Button>
        </div>
      </Stack>
    </form>
  );
}

/** The shared schema's checks; the route's message is the spec's 'No group selected…'. */
function validateMember(
  route: number | null,
  customer: number | null,
  stop: number | undefined,
  flag: BillIndicatorFlag,
): { route?: string; customer?: string } {
  const parsed = routePlanInputSchema.safeParse({
    route: route ?? undefined,
    customer: customer ?? undefined,
    stop,
    bill_indicator_flag: flag,
  });
  if (parsed.success) return {};
  const messages: { route?: string; customer?: string } = {};
  for (const issue of parsed.error.issues) {
    if (issue.path[0] === "route")
      messages.route ??= route === null ? NO_GROUP_SELECTED_MESSAGE : issue.message;
    if (issue.path[0] === "customer") messages.customer ??= "Choose a customer.";
  }
  return messages;
}
