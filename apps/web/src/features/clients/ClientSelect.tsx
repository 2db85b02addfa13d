import { Text } from "@mantine/core";
import { TypeaheadSelect } from "../shell/TypeaheadSelect";
import { clientLabel, searchClients, type ClientSummary } from "./client-api";
import { useClientContext } from "../../shared/client-context";

/** Admin-only typeahead in the second bar; choosing a client writes client_id into the address. */
export function ClientSelect() {
  const { clientId, clientName, selectClient } = useClientContext();
  return (
    <TypeaheadSelect<ClientSummary>
      label="Client Select"
      placeholder="Search clients by name or number"
      caption="Client"
      width={340}
      selectedLabel={clientId === null ? null : (clientName ?? `Client ${clientId}`)}
      queryKey={["clients", "typeahead"]}
      search={searchClients}
      getId={(client) => client.id}
      renderOption={(client) => (
        <div>
          <Text size="sm">{clientLabel(client)}</Text>
          {client.city || client.state ? (
            <Text size="xs" c="dimmed">
              {[client.city, client.state].filter(Boolean).join(", ")}
            </Text>
          ) : null}
        </div>
      )}
      onSelect={(client) => selectClient(client?.id ?? null)}
    />
  );
}
