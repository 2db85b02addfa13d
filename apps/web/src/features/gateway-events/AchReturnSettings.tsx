import { Alert, Button, Group, Paper, Stack, Switch, Text, TextInput, Title } from "@mantine/core";
import type { ClientUpdate } from "@cyclebill/domain";
import { useState } from "react";
import { describeApiError } from "../../api/api-client";
import { useClientDetail, useUpdateClient } from "../clients/client-api";

type AchRules = { represent_ach_returns?: boolean; ach_return_fee?: string };

/**
 * The client's NACHA choices for returned ACH debits (owners and admins): present an R01/R09
 * return again (at most twice within 180 days) and the fee charged once per returned entry.
 * Saved with the rest of the client's record as it is stored.
 */
export function AchReturnSettings({ clientId }: { clientId: number }) {
  const detail = useClientDetail(clientId);
  const update = useUpdateClient(clientId);
  const stored = detail.data as (typeof detail.data & AchRules) | undefined;
  if (!stored) return null;
  // Keyed by what is stored: a save (or another editor's) starts the form from the new values.
  return (
    <AchReturnForm
      key={`${String(stored.represent_ach_returns)}-${stored.ach_return_fee ?? ""}`}
      stored={stored}
      update={update}
    />
  );
}

function AchReturnForm({
  stored,
  update,
}: {
  stored: AchRules & object;
  update: ReturnType<typeof useUpdateClient>;
}) {
  const [represent, setRepresent] = useState(stored.represent_ach_returns ?? false);
  const [fee, setFee] = useState(stored.ach_return_fee ?? "0.00");
  const save = () => {
    const body = { ...stored, represent_ach_returns: represent, ach_return_fee: fee.trim() || "0" };
    update.mutate(body as unknown as ClientUpdate);
  };
  return (
    <Paper withBorder p="md" radius="md" data-testid="ach-return-settings">
      <Stack gap="sm">
        <div>
          <Title order={4}>Returned ACH payments</Title>
          <Text size="sm" c="dimmed">
            A bank account returned for insufficient or uncollected funds (R01, R09) may be debited again at
            most twice within 180 days; a return fee is charged once per payment, only for those returns. Tell
            your customers about both in your payment terms.
          </Text>
        </div>
        <Switch
          label="Present R01/R09 returns again automatically"
          checked={represent}
          onChange={(event) => setRepresent(event.currentTarget.checked)}
        />
        <TextInput
          label="Return fee"
          description="0.00: no fee"
          value={fee}
          onChange={(event) => setFee(event.currentTarget.value)}
          maw={200}
        />
        <Group>
          <Button onClick={save} loading={update.isPending}>
            Save return rules
          </Button>
        </Group>
        {update.isError ? <Alert color="red">{describeApiError(update.error)}</Alert> : null}
        {update.isSuccess ? <Alert color="teal">Return rules saved.</Alert> : null}
      </Stack>
    </Paper>
  );
}
