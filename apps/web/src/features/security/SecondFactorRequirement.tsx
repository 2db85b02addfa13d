import { Alert, Paper, Stack, Switch, Text, Title } from "@mantine/core";
import type { ClientUpdate } from "@cyclebill/domain";
import { describeApiError } from "../../api/api-client";
import { useClientDetail, useUpdateClient } from "../clients/client-api";

type Requirement = { require_second_factor?: boolean };

/**
 * Provider admins: the client requires a second factor of every user (each is held at enrolment
 * until they set one up). Saved with the rest of the client's record as it is stored.
 */
export function SecondFactorRequirement({ clientId }: { clientId: number }) {
  const detail = useClientDetail(clientId);
  const update = useUpdateClient(clientId);
  const stored = detail.data as (typeof detail.data & Requirement) | undefined;
  if (!stored) return null;
  const required = stored.require_second_factor ?? false;
  return (
    <Paper withBorder p="md" radius="md" data-testid="second-factor-requirement">
      <Stack gap="sm">
        <div>
          <Title order={4}>Two-step sign-in</Title>
          <Text size="sm" c="dimmed">
            When required, each of this client&apos;s users must set up an authenticator app or a passkey
            before reaching anything else.
          </Text>
        </div>
        <Switch
          label="Require a second factor of this client's users"
          checked={required}
          disabled={update.isPending}
          onChange={(event) =>
            update.mutate({
              ...stored,
              require_second_factor: event.currentTarget.checked,
            } as unknown as ClientUpdate)
          }
        />
        {update.isError ? <Alert color="red">{describeApiError(update.error)}</Alert> : null}
      </Stack>
    </Paper>
  );
}
