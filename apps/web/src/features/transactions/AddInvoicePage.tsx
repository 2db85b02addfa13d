import { Button, Group, Paper, Stack, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useClientContext } from "../../shared/client-context";
import { NoClientPage } from "../clients/ClientRequired";
import { PageHeader } from "../shell/PageHeader";
import { today } from "../../lib/business-date";
import { addInvoice } from "./invoice-api";
import { CustomerPicker, type PickedCustomer } from "./pickers";

/** Create Invoice: a customer and a date; the new, open invoice opens in Edit Invoice. */
export function AddInvoicePage() {
  const { clientId, withClient } = useClientContext();
  const navigate = useNavigate();
  const [customer, setCustomer] = useState<PickedCustomer | null>(null);
  const [invoiceDate, setInvoiceDate] = useState(today());
  const create = useMutation({
    mutationFn: () => addInvoice(clientId, customer?.id ?? 0, invoiceDate),
    onSuccess: (invoice) => void navigate(withClient(`/transactions/invoice/edit/${invoice.id}`)),
  });

  if (clientId === null) {
    return (
      <NoClientPage
        header={<PageHeader title="Create Invoice" />}
        what="invoices"
        adminNotice="Choose a client to create invoices."
      />
    );
  }
  return (
    <Stack gap="md">
      <PageHeader
        title="Create Invoice"
        description="Open an invoice for a customer, then add or gather its transactions."
      />
      <Paper withBorder p="md" maw={640}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (customer) create.mutate();
          }}
        >
          <Group align="flex-end" gap="md">
            <CustomerPicker
              clientId={clientId}
              label="Invoice customer"
              showLabel
              width={280}
              value={customer}
              onChange={setCustomer}
            />
            <TextInput
              type="date"
              label="Invoice date"
              required
              value={invoiceDate}
              onChange={(event) => setInvoiceDate(event.currentTarget.value)}
            />
            <Button
              type="submit"
              disabled={customer === null || invoiceDate === ""}
              loading={create.isPending}
            >
              Create Invoice
            </Button>
          </Group>
        </form>
      </Paper>
    </Stack>
  );
}
