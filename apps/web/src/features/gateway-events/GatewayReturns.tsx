import { Alert, Anchor, Badge, Group, Stack, Text } from "@mantine/core";
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
export function GatewayReturns({
  clientId,
  customerId,
  date,
}: {
  clientId: number;
  customerId?: number;
  /** Only the events the gateway dated this day (the reconciliation's day). */
  date?: string;
}) {
  const { withClient } = useClientContext();
  const events = useGatewayEvents(clientId, { customerId, limit: 50, date });
  const rows = (events.data?.results ?? [])
    .filter((event) => FOLLOW_UP_KINDS.includes(event.kind))
    .slice(0, 10);
  if (rows.length === 0) return null;
  return (
    <Alert color="orange" title="Returned payments and chargebacks" data-testid="gateway-returns">
      <Text size="sm" mb="xs">
        Each payment was taken off the customer&apos;s account again and the customer emailed (where we have
        an address); a bank account returned as closed, wrong or unauthorized is not debited again until the
        customer gives new details.
      </Text>
      <Stack gap={6} component="ul" aria-label="Returned payments and chargebacks" p={0} m={0}>
        {rows.map((event) => (
          <Group key={event.id} component="li" gap="xs" wrap="wrap" style={{ listStyle: "none" }}>
            <Text size="sm" style={{ whiteSpace: "nowrap" }}>
              {formatIsoDate(event.event_date)}
            </Text>
            <Badge size="sm" variant="light" color={KIND_COLORS[event.kind] ?? "gray"}>
              {KIND_LABELS[event.kind]}
            </Badge>
            {customerId === undefined ? (
              event.customer_id !== null ? (
                <Anchor component={Link} size="sm" to={withClient(editorPath(event.customer_id))}>
                  {event.customer_no} · {event.customer_name}
                </Anchor>
              ) : (
                <Text size="sm" c="dimmed">
                  No customer of ours
                </Text>
              )
            ) : null}
            <Text size="sm" fw={600}>
              {formatAmount(event.amount)}
            </Text>
            <Text size="sm">{event.description}</Text>
          </Group>
        ))}
      </Stack>
    </Alert>
  );
}
