import { Alert, Anchor, Box, Button, Group, Skeleton, Stack, Text } from "@mantine/core";
import { useQueries } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { apiFetch } from "../../api/api-client";
import { NoClientNotice } from "../clients/ClientRequired";
import { useClientContext } from "../../shared/client-context";
import { PageHeader } from "../shell/PageHeader";
import { customerKey } from "./customer-api";
import type { CustomerRecord } from "@cyclebill/domain";
import { CUSTOMER_IDS_PARAM, parseCustomerIds } from "./customer-links";
import { countOf, plural } from "../../lib/plural";

// Printable address labels for the customers chosen in Manage Customers: name and address lines
// (spec: firstAddressField, secondAddressField, address3), three across like a sheet of 1" × 2⅝" labels.

const PRINT_CSS = `
@media print {
  @page { size: letter; margin: 0.5in 0.19in; }
  .mantine-AppShell-header, .mantine-AppShell-navbar, [data-print-hidden] { display: none !important; }
  .mantine-AppShell-main { padding: 0 !important; min-height: 0 !important; background: white !important; }
  [data-label-sheet] { gap: 0 0.125in !important; }
  [data-label] { border: none !important; box-shadow: none !important; break-inside: avoid; }
}
`;

export type AddressLabel = { id: number; lines: string[]; missingAddress: boolean };

/** The label's lines: the name, the address lines that are filled in, then city, state and zip. */
export function labelLines(customer: CustomerRecord): AddressLabel {
  const cityLine = [customer.city, [customer.state, customer.zip].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
  const address = [customer.address1, customer.address2, customer.address3, cityLine]
    .map((line) => line.trim())
    .filter(Boolean);
  const person = `${customer.first_name} ${customer.last_name}`.trim();
  const name = customer.customer_name || person || customer.company_name;
  // A company with a contact person gets the person on a line of its own.
  const attention = customer.company_name && person && name !== person ? [`Attn: ${person}`] : [];
  return { id: customer.id, lines: [name, ...attention, ...address], missingAddress: address.length === 0 };
}

export function CustomerPrintView() {
  const { clientId, withClient } = useClientContext();
  const [searchParams] = useSearchParams();
  const ids = parseCustomerIds(searchParams.get(CUSTOMER_IDS_PARAM));

  const customers = useQueries({
    queries: ids.map((id) => ({
      queryKey: customerKey(clientId ?? 0, id),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        apiFetch<CustomerRecord>(`/customers/${String(id)}/`, { query: { client_id: clientId }, signal }),
      enabled: clientId !== null,
    })),
  });
  const loaded = customers.flatMap((query) => (query.data ? [query.data] : []));
  const pending = customers.some((query) => query.isPending);
  const failed = customers.filter((query) => query.isError).length;
  const labels = loaded.map(labelLines);
  const missing = labels.filter((label) => label.missingAddress).length;

  const back = (
    <Anchor component={Link} to={withClient("/customers/manage")} size="sm" data-print-hidden>
      ← Back to customers
    </Anchor>
  );

  return (
    <Stack gap="md">
      <style>{PRINT_CSS}</style>
      <Box data-print-hidden>
        <Stack gap="md">
          {back}
          <PageHeader
            title="Address Labels"
            description={
              ids.length === 0
                ? "Labels for the customers you select in Manage Customers."
                : `${countOf(labels.length, "label")} · Letter paper, three across (1" × 2⅝" labels)`
            }
            actions={
              <Button onClick={() => window.print()} disabled={labels.length === 0 || pending}>
                Print
              </Button>
            }
          />
          {clientId === null ? <NoClientNotice what="customers" /> : null}
          {ids.length === 0 && clientId !== null ? (
            <Alert color="blue" variant="light" title="No customers selected" maw={640}>
              Select customers with the check boxes in{" "}
              <Anchor component={Link} to={withClient("/customers/manage")}>
                Manage Customers
              </Anchor>{" "}
              and choose Print Address Labels.
            </Alert>
          ) : null}
          {failed > 0 ? (
            <Alert color="red" variant="light" maw={640}>
              {failed} of the selected customers could not be loaded and {plural(failed, "is", "are")} left
              out.
            </Alert>
          ) : null}
          {missing > 0 ? (
            <Alert color="yellow" variant="light" maw={640}>
              {missing} of the selected customers {plural(missing, "has", "have")} no mailing address; their
              label shows only the name.
            </Alert>
          ) : null}
        </Stack>
      </Box>

      {ids.length > 0 && clientId !== null ? (
        <Box
          data-label-sheet
          role="list"
          aria-label="Address labels"
          style={{
            display: "grid",
            gridTemplateColumns: "repeat(3, 2.625in)",
            gridAutoRows: "1in",
            gap: "0.125in",
            justifyContent: "start",
          }}
        >
          {pending && labels.length === 0
            ? ids.slice(0, 9).map((id) => <Skeleton key={id} h="1in" radius="sm" />)
            : labels.map((label) => (
                <Box
                  key={label.id}
                  role="listitem"
                  data-label
                  bg="white"
                  px="0.18in"
                  py="0.1in"
                  style={{
                    border: "1px dashed var(--mantine-color-gray-4)",
                    borderRadius: 6,
                    overflow: "hidden",
                    display: "flex",
                    flexDirection: "column",
                    justifyContent: "center",
                    fontFamily: "Helvetica, Arial, sans-serif",
                  }}
                >
                  {label.lines.map((line, index) => (
                    <Text
                      key={`${String(index)}-${line}`}
                      size="sm"
                      lh={1.25}
                      fw={index === 0 ? 600 : 400}
                      truncate="end"
                    >
                      {line}
                    </Text>
                  ))}
                </Box>
              ))}
        </Box>
      ) : null}
      <Group data-print-hidden>
        <Text size="xs" c="dimmed">
          Tip: print at 100% scale (no “fit to page”) so the labels line up with the sheet.
        </Text>
      </Group>
    </Stack>
  );
}
