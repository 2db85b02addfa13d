import type { Passkey } from "@cyclebill/domain";
import {
  Alert,
  Button,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { browserSupportsWebAuthn } from "@simplewebauthn/browser";
import { useState, type FormEvent } from "react";
import { describeApiError } from "../../api/api-client";
import { formatIsoDate } from "../../lib/format";
import { passkeyErrorMessage } from "./passkey-errors";
import { RemoveWithPasswordForm } from "./RemoveWithPasswordForm";
import { useAddPasskey, useRemovePasskey } from "./second-factor-api";

/**
 * The user's passkeys (Windows Hello, Touch ID, a phone, a security key): each can be the second
 * step of signing in, beside or instead of the authenticator app.
 */
export function PasskeysPanel({
  passkeys,
  lastFactor,
}: {
  passkeys: Passkey[];
  /** The user must keep a factor and has one alone: it cannot be removed here. */
  lastFactor: boolean;
}) {
  const [removing, setRemoving] = useState<Passkey | null>(null);
  return (
    <Stack gap="sm" data-testid="passkeys-panel">
      <Title order={4} size="h5">
        Passkeys
      </Title>
      <Text size="sm">
        A passkey lives on your device (fingerprint, face, screen lock or a security key): after your
        password, signing in asks your device to confirm.
      </Text>
      {passkeys.length > 0 ? (
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing="xs" aria-label="Your passkeys">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Added</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {passkeys.map((passkey) => (
                <Table.Tr key={passkey.id}>
                  <Table.Td>{passkey.name}</Table.Td>
                  <Table.Td>{formatIsoDate(passkey.created_at)}</Table.Td>
                  <Table.Td>{passkey.last_used_at ? formatIsoDate(passkey.last_used_at) : "Never"}</Table.Td>
                  <Table.Td ta="right">
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      disabled={lastFactor}
                      onClick={() => setRemoving(passkey)}
                      aria-label={`Remove passkey ${passkey.name}`}
                    >
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {lastFactor ? (
        <Text size="xs" c="dimmed">
          Your account must keep a second factor, so your only one cannot be removed here. If you lose it, ask
          a provider admin to reset it.
        </Text>
      ) : null}
      <AddPasskeyForm />
      <Modal opened={removing !== null} onClose={() => setRemoving(null)} title="Remove passkey">
        {removing ? <RemovePasskeyForm passkey={removing} onDone={() => setRemoving(null)} /> : null}
      </Modal>
    </Stack>
  );
}

function AddPasskeyForm() {
  const add = useAddPasskey();
  const [name, setName] = useState("");
  const supported = browserSupportsWebAuthn();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name.trim() || "Passkey", { onSuccess: () => setName("") });
  };
  if (!supported)
    return (
      <Text size="sm" c="dimmed">
        This browser cannot use passkeys.
      </Text>
    );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs" align="flex-start">
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Name for the new passkey"
            placeholder="e.g. Work laptop"
            maxLength={100}
            w={260}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <Button type="submit" variant="default" loading={add.isPending}>
            Add a passkey
          </Button>
        </Group>
        {add.isError ? (
          <Alert color="red">{passkeyErrorMessage(add.error) ?? describeApiError(add.error)}</Alert>
        ) : null}
      </Stack>
    </form>
  );
}

function RemovePasskeyForm({ passkey, onDone }: { passkey: Passkey; onDone: () => void }) {
  const remove = useRemovePasskey();
  return (
    <RemoveWithPasswordForm
      message={`“${passkey.name}” will no longer sign you in, and your other sessions end. Enter your password to go on.`}
      pending={remove.isPending}
      error={remove.error}
      onConfirm={(password) => remove.mutate({ id: passkey.id, password }, { onSuccess: onDone })}
    />
  );
}
