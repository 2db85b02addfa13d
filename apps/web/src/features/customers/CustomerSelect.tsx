import { Text } from "@mantine/core";
import { apiFetch } from "../../api/api-client";
import { useClientContext } from "../../shared/client-context";
import { TypeaheadSelect, type TypeaheadPage } from "../shell/TypeaheadSelect";
import { useSelectedCustomer } from "./selected-customer";

export type CustomerMatch = {
  id: number;
  customer_no: number | string;
  customer_name: string;
  first_name: string;
  last_name: string;
  company_name: string;
};

export function customerLabel(customer: { customer_no: number | string; customer_name: string }): string {
  return `${customer.customer_no} · ${customer.customer_name}`;
}

/** The customer kept selected across screens; needs a client, so admins pick one first. */
export function CustomerSelect() {
  const { clientId, isAdmin } = useClientContext();
  const { customer, setCustomer } = useSelectedCustomer(clientId);

  const search = (query: string, signal: AbortSignal) =>
    apiFetch<TypeaheadPage<CustomerMatch>>("/typeahead/customers/", {
      query: { client_id: clientId, query },
      signal,
    });

  return (
    <TypeaheadSelect<CustomerMatch>
      label="Customer Select"
      placeholder={
        clientId === null
          ? isAdmin
            ? "Choose a client first"
            : "No client"
          : "Search customers by name or number"
      }
      caption="Customer"
      width={380}
      disabled={clientId === null}
      selectedLabel={customer ? customerLabel(customer) : null}
      queryKey={["customers", "typeahead", clientId]}
      search={search}
      getId={(match) => match.id}
      renderOption={(match) => (
        <div>
          <Text size="sm">{customerLabel(match)}</Text>
          {match.company_name && match.company_name !== match.customer_name ? (
            <Text size="xs" c="dimmed">
              {match.company_name}
            </Text>
          ) : null}
        </div>
      )}
      onSelect={(match) =>
        setCustomer(
          match === null
            ? null
            : { id: match.id, customer_no: match.customer_no, customer_name: match.customer_name },
        )
      }
    />
  );
}
