import { Alert, Anchor, Table, Text } from "@mantine/core";
import { Link } from "react-router";
import { formatAmount } from "../../lib/format";
import { useClientContext } from "../../shared/client-context";
import { editorPath } from "../customers/customer-links";
import { useAttemptsNeedingAttention } from "./payments-api";

/**
 * Customers whose autopay charge was declined and who have paid nothing since: staff follow up
 * (the customer was emailed). Shown on Process CC Payments; nothing when there are none.
 */
export function AutopayDeclines({ clientId }: { clientId: number }) {
  const { withClient } = useClientContext();
  const declines = useAttemptsNeedingAttention(clientId);
  const rows = declines.data?.results ?? [];
  if (rows.length === 0) return null;
  return (
    <Alert
      color="red"
      title={`Autopay declined: ${String(declines.data?.count ?? rows.length)} to follow up`}
    >
      <Text size="sm" mb="xs">
        These customers were emailed that their automatic payment was declined; none has paid since.
      </Text>
      <Table aria-label="Declined autopay charges" withRowBorders={false} verticalSpacing={2}>
        <Table.Tbody>
          {rows.map((attempt) => (
            <Table.Tr key={attempt.id}>
              <Table.Td>
                <Anchor component={Link} size="sm" to={withClient(editorPath(attempt.customer_id))}>
                  {attempt.customer_no} · {attempt.customer_name}
                </Anchor>
              </Table.Td>
              <Table.Td ta="right">{formatAmount(attempt.amount)}</Table.Td>
              <Table.Td>{attempt.message}</Table.Td>
              <Table.Td>{new Date(attempt.created).toLocaleDateString("en-US")}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Alert>
  );
}
