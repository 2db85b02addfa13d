import { Alert, Button, Group, List, Loader, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import { useClientHoldings } from "./client-api";
import type { ClientRecord } from "./client-record";
import { countOf } from "../../lib/plural";

type Props = {
  client: ClientRecord | null;
  loading: boolean;
  error: unknown;
  onConfirm: () => void;
  onCancel: () => void;
  /** Opens the client's editor, where its status can be set to I or D. */
  onOpenClient: (client: ClientRecord) => void;
};

/**
 * Delete client (issue 30): what the client holds is shown before any button. A client with books
 * (ledger entries, statements, payments) cannot be deleted, only made inactive; an empty one is
 * deleted after the user types its name.
 */
export function DeleteClientDialog({ client, loading, error, onConfirm, onCancel, onOpenClient }: Props) {
  return (
    <Modal opened={client !== null} onClose={onCancel} title="Delete client" centered>
      {/* Keyed by client: the typed name never carries over to another client. */}
      {client ? (
        <DeleteClientBody
          key={client.id}
          client={client}
          loading={loading}
          error={error}
          onConfirm={onConfirm}
          onCancel={onCancel}
          onOpenClient={onOpenClient}
        />
      ) : null}
    </Modal>
  );
}

function DeleteClientBody({
  client,
  loading,
  error,
  onConfirm,
  onCancel,
  onOpenClient,
}: Omit<Props, "client"> & { client: ClientRecord }) {
  const holdings = useClientHoldings(client.id);
  const [typed, setTyped] = useState("");
  const conflict = error instanceof ApiError && error.status === 409 ? describeApiError(error) : null;
  const cancel = (
    <Button variant="default" onClick={onCancel} disabled={loading}>
      Cancel
    </Button>
  );

  if (holdings.isPending) {
    return (
      <Group gap="sm" py="md">
        <Loader size="sm" />
        <Text size="sm">Checking what {client.client_name} holds…</Text>
      </Group>
    );
  }
  if (holdings.isError) {
    return (
      <Stack gap="lg">
        <Alert color="red">{describeApiError(holdings.error)}</Alert>
        <Group justify="flex-end">{cancel}</Group>
      </Stack>
    );
  }
  const held = holdings.data;
  const refusal = held.refusal ?? conflict;
  if (refusal) {
    return (
      <Stack gap="lg">
        <Alert color="red" title="This client cannot be deleted">
          {refusal}
        </Alert>
        <List size="sm" spacing={2} aria-label="What the client holds">
          <List.Item>{countOf(held.customers, "customer")}</List.Item>
          <List.Item>{countOf(held.ledger_entries, "ledger entry", "ledger entries")}</List.Item>
          <List.Item>{countOf(held.statements, "statement")}</List.Item>
          <List.Item>{countOf(held.payments, "payment")}</List.Item>
        </List>
        <Group justify="flex-end" gap="sm">
          {cancel}
          <Button onClick={() => onOpenClient(client)}>Open client to make it inactive</Button>
        </Group>
      </Stack>
    );
  }
  const matches = typed.trim() === client.client_name.trim();
  return (
    <Stack gap="lg">
      <Text size="sm">
        Delete <strong>{client.client_name}</strong> (client {client.client_no})? It has no ledger entries,
        statements or payments. Its {countOf(held.customers, "customer")}, codes and groups are deleted with
        it, and its users can no longer log in to it. This cannot be undone.
      </Text>
      <TextInput
        label="Type the client's name to confirm"
        value={typed}
        onChange={(event) => setTyped(event.currentTarget.value)}
        autoComplete="off"
        data-autofocus
      />
      <Group justify="flex-end" gap="sm">
        {cancel}
        <Button color="red" onClick={onConfirm} loading={loading} disabled={!matches}>
          Delete client
        </Button>
      </Group>
    </Stack>
  );
}
