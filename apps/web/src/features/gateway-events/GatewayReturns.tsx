import { Alert, Anchor, Badge, Table, Text } from "@mantine/core";
import { Link } from "react-router";
import { formatAmount, formatIsoDate } from "../../lib/format";
import { useClientContext } from "../../shared/client-context";
import { editorPath } from "../customers/customer-links";
import { FOLLOW_UP_KINDS, KIND_LABELS, useGatewayEvents } from "./gateway-events-api";

const KIND_COLORS: Record<string, string> = {
  returned: "red",
  charged_back: "red",
  chargeback_reversed: "teal",
  noc: "orange",
  re_presented: "blue",
};

/**
 * Payments the bank returned or the cardholder charged back (and what followed: a reversal, a
 * correction, a second presentment), newest first: Home and Process CC show the client's, a
 * customer's Payments tab that customer's. Nothing when there are none.
 */
export function GatewayReturns({ clientId, customerId }: { clientId: number; customerId?: number }) {
  const { withClient } = useClientContext();
  const events = useGatewayEvents(clientId, { customerId, limit: 50 });
  const rows = (events.data?.results ?? [])
    .filter((event) => FOLLOW_UP_KINDS.includes(event.kind))
    .slice(0, 10);
  if (rows.length === 0) return null;
  return (
    <Alert color="orange" title="Returned payments and chargebacks" data-testid="gateway-returns">
      <Text size="sm" mb="xs">
        Each was taken off the customer&apos;s account again (the customer was emailed); a bank account
        returned as closed, wrong or unauthorized is not debited again until the customer gives new details.
      </Text>
      <Table aria-label="Returned payments and chargebacks" withRowBorders={false} verticalSpacing={2}>
        <Table.Tbody>
          {rows.map((event) => (
            <Table.Tr key={event.id}>
              <Table.Td>{formatIsoDate(event.event_date)}</Table.Td>
              <Table.Td>
                <Badge size="sm" variant="light" color={KIND_COLORS[event.kind] ?? "gray"}>
                  {KIND_LABELS[event.kind]}
                </Badge>
              </Table.Td>
              {customerId === undefined ? (
                <Table.Td>
                  {event.customer_id !== null ? (
                    <Anchor component={Link} size="sm" to={withClient(editorPath(event.customer_id))}>
                      {event.customer_no} · {event.customer_name}
                    </Anchor>
                  ) : (
                    <Text size="sm" c="dimmed">
                      No customer of ours
                    </Text>
                  )}
                </Table.Td>
              ) : null}
              <Table.Td ta="right">{formatAmount(event.amount)}</Table.Td>
              <Table.Td>{event.description}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Alert>
  );
}
