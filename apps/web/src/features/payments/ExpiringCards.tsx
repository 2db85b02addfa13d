import { Alert, Anchor, Badge, Group, Pagination, Table, Text } from "@mantine/core";
import type { ExpiringCardsPage } from "@cyclebill/domain";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { apiFetch } from "../../api/api-client";
import { useClientContext } from "../../shared/client-context";
import { editorPath } from "../customers/customer-links";

const PAGE_SIZE = 20;

/** MMYY as a card prints it: 04/31. */
function expiryText(expiry: string): string {
  return expiry.length === 4 ? `${expiry.slice(0, 2)}/${expiry.slice(2)}` : expiry || "—";
}

function usDay(iso: string): string {
  const [year, month, day] = iso.split("-");
  return `${month ?? ""}/${day ?? ""}/${year ?? ""}`;
}

/**
 * Cards on file that expire before the customer's next charge (GET /api/payment-methods/expiring/):
 * the owner asks for a new card; each customer with an email address is emailed once per card.
 * Shown on Process CC; nothing when there are none.
 */
export function ExpiringCards({ clientId }: { clientId: number }) {
  const { withClient } = useClientContext();
  const [page, setPage] = useState(1);
  const expiring = useQuery({
    queryKey: ["payments", "expiring-cards", clientId, page],
    queryFn: ({ signal }) =>
      apiFetch<ExpiringCardsPage>("/payment-methods/expiring/", {
        query: { client_id: clientId, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  const count = expiring.data?.count ?? 0;
  const rows = expiring.data?.results ?? [];
  if (count === 0) return null;
  return (
    <Alert color="yellow" title={`Cards expiring before the next charge: ${String(count)}`}>
      <Text size="sm" mb="xs">
        Ask these customers for a new card before their next payment. Each is emailed once per card.
      </Text>
      <Table.ScrollContainer minWidth={560}>
        <Table aria-label="Cards expiring before the next charge" withRowBorders={false} verticalSpacing={2}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Customer</Table.Th>
              <Table.Th>Card</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Next charge</Table.Th>
              <Table.Th>Emailed</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((card) => (
              <Table.Tr key={`${String(card.customer_id)}-${card.mask}-${card.expiry}`}>
                <Table.Td>
                  <Anchor component={Link} size="sm" to={withClient(editorPath(card.customer_id))}>
                    {card.customer_no} · {card.customer_name}
                  </Anchor>
                  {card.autopay_flag ? (
                    <Badge size="xs" ml={6} variant="light">
                      Autopay
                    </Badge>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  {card.card_type || "Card"} {card.mask.replace(/[^0-9]/g, "").slice(-4)}
                </Table.Td>
                <Table.Td>{expiryText(card.expiry)}</Table.Td>
                <Table.Td>{usDay(card.next_charge_on)}</Table.Td>
                <Table.Td>
                  {card.notified_at ? new Date(card.notified_at).toLocaleDateString("en-US") : "—"}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {count > PAGE_SIZE ? (
        <Group justify="flex-end" mt="xs">
          <Pagination
            size="sm"
            total={Math.ceil(count / PAGE_SIZE)}
            value={page}
            onChange={setPage}
            aria-label="Expiring cards pages"
          />
        </Group>
      ) : null}
    </Alert>
  );
}
