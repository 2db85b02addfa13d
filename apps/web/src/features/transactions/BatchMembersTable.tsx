import { Badge, Group, Loader, Switch, Table, Text, TextInput } from "@mantine/core";
import { formatAmount } from "../../lib/format";
import {
  REFUSAL_BADGE,
  lineAmount,
  parseAmount,
  parseQuantity,
  type BatchMember,
  type BatchType,
  type RefusalReason,
  type RowOverride,
} from "./group-batch-api";
import type { BatchRows } from "./use-batch-rows";
import { EmptyRow } from "../shell/LoadingRows";

export type BatchMembersTableProps = {
  transactionType: BatchType;
  members: readonly BatchMember[];
  /** The members the filter shows. */
  shown: readonly BatchMember[];
  membersLoading: boolean;
  emptyText: string;
  rows: BatchRows;
  /** Why the server would refuse this customer with the chosen code, or null. */
  refusalOf: (member: BatchMember) => RefusalReason | null;
  showQty: boolean;
  defaultAmount: string;
  unitName: string;
  submitted: boolean;
  amountOf: (override: RowOverride | undefined) => string;
  quantityOf: (override: RowOverride | undefined) => string;
};

/** The customers to bill: each included or omitted, with its own amount (and quantity). */
export function BatchMembersTable(props: BatchMembersTableProps) {
  const { transactionType, members, shown, rows, refusalOf, showQty, defaultAmount, submitted } = props;
  const { amountOf, quantityOf } = props;
  return (
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
            <EmptyRow columns={8} look="plain">
              {members.length === 0 ? props.emptyText : "No customers match the filter."}
            </EmptyRow>
          ) : (
            shown.map((member) => {
              const omitted = rows.omitted.has(member.id);
              const refusal = refusalOf(member);
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
                      onChange={(event) => rows.setOmitted([member.id], !event.currentTarget.checked)}
                    />
                  </Table.Td>
                  {transactionType === "route" ? <Table.Td>{member.position ?? ""}</Table.Td> : null}
                  <Table.Td>{member.customer_no}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Text size="sm" lineClamp={1} title={member.customer_name}>
                        {member.customer_name}
                      </Text>
                      {refusal ? (
                        <Badge
                          color={refusal === "marked_for_deletion" ? "orange" : "dark"}
                          variant="light"
                          size="xs"
                          tt="none"
                          title="The server refuses this entry for this customer"
                        >
                          {REFUSAL_BADGE[refusal]}
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
                      onChange={(event) => rows.setOverride(member.id, { amount: event.currentTarget.value })}
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
                            rows.setOverride(member.id, { quantity: event.currentTarget.value })
                          }
                        />
                      </Table.Td>
                      <Table.Td>{props.unitName}</Table.Td>
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
  );
}
