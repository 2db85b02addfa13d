import { Alert, Button, Group, Select, Stack, Table, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { describeApiError } from "../../api/api-client";
import { clientLabel, useClientList } from "../clients/client-api";
import { useClearHold, useHolds, useSetHold } from "./schedule-api";

/** Clients held out of scheduled runs, with why; a run started by hand still bills them. */
export function ProductionHolds() {
  const holds = useHolds();
  const hold = useSetHold();
  const release = useClearHold();
  const [search, setSearch] = useState("");
  const [clientId, setClientId] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const clients = useClientList({ query: search, limit: 50, offset: 0, ordering: "client_name" });
  const results = holds.data?.results ?? [];

  return (
    <Stack gap="xs">
      <Text fw={600}>Clients held out of scheduled runs</Text>
      {results.length > 0 ? (
        <Table aria-label="Held clients" maw={640}>
          <Table.Tbody>
            {results.map((item) => (
              <Table.Tr key={item.client_id}>
                <Table.Td>{item.client_name}</Table.Td>
                <Table.Td>{item.reason}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="default"
                    loading={release.isPending && release.variables === item.client_id}
                    onClick={() => release.mutate(item.client_id)}
                  >
                    Release hold
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : holds.data ? (
        <Text size="sm" c="dimmed">
          No client is held.
        </Text>
      ) : null}
      <Group align="flex-end" gap="md" wrap="wrap">
        <Select
          label="Hold client"
          placeholder="Search clients"
          searchable
          data={(clients.data?.results ?? []).map((client) => ({
            value: String(client.id),
            label: clientLabel(client),
          }))}
          searchValue={search}
          onSearchChange={setSearch}
          value={clientId}
          onChange={setClientId}
          w={260}
        />
        <TextInput
          label="Reason"
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          w={260}
        />
        <Button
          disabled={clientId === null}
          loading={hold.isPending}
          onClick={() =>
            clientId !== null &&
            hold.mutate(
              { clientId: Number(clientId), reason },
              {
                onSuccess: () => {
                  setClientId(null);
                  setSearch("");
                  setReason("");
                },
              },
            )
          }
        >
          Hold out of scheduled runs
        </Button>
      </Group>
      {hold.isError ? <Alert color="red">{describeApiError(hold.error)}</Alert> : null}
    </Stack>
  );
}
