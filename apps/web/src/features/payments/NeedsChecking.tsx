import type { NeedsCheckingAttempt } from "@cyclebill/domain";
import {
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
import { describeApiError } from "../../api/api-client";
import { formatAmount } from "../../lib/format";
import { useClientContext } from "../../shared/client-context";
import { useUser } from "../auth/user-context";
import { editorPath } from "../customers/customer-links";
import { useNeedsChecking, useResolveAttempt } from "./needs-checking-api";
import { plural } from "../../lib/plural";

type Verdict = "charged" | "not_charged";

/**
 * Payments whose gateway answer was lost or unusable: being looked up for 72 hours, then waiting for
 * a person. Owners and admins record what they found at the gateway ("it was charged" posts the
 * payment, "it was not charged" closes it), with the reason. Nothing shows when there are none.
 */
export function NeedsChecking({ clientId }: { clientId: number }) {
  const { withClient } = useClientContext();
  const canResolve = !useUser().is_client_staff;
  const list = useNeedsChecking(clientId);
  const [deciding, setDeciding] = useState<{ attempt: NeedsCheckingAttempt; verdict: Verdict } | null>(null);
  const rows = list.data?.results ?? [];
  if (rows.length === 0) return null;
  const waiting = rows.filter((row) => row.needs_checking).length;
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="section"
      aria-label="Payments to confirm"
      id="needs-checking"
    >
      <Text fw={600} mb={4}>
        {`Payments to confirm with the gateway: ${String(list.data?.count ?? rows.length)}${
          waiting > 0 ? ` (${String(waiting)} ${plural(waiting, "needs", "need")} checking)` : ""
        }`}
      </Text>
      <Text size="sm" mb="xs">
        The gateway's answer to these payments was lost or unclear. They are looked up by their order id for
        72 hours; the customer is not charged again meanwhile. After that, check the payment in BluePay and
        record what you found.
      </Text>
      <Table.ScrollContainer minWidth={720}>
        <Table aria-label="Payments to confirm with the gateway" verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Customer</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Order id</Table.Th>
              <Table.Th>Made</Table.Th>
              <Table.Th>What the gateway showed</Table.Th>
              {canResolve ? <Table.Th /> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((attempt) => (
              <Table.Tr key={attempt.id}>
                <Table.Td>
                  <Anchor component={Link} size="sm" to={withClient(editorPath(attempt.customer_id))}>
                    {attempt.customer_no} · {attempt.customer_name}
                  </Anchor>
                </Table.Td>
                <Table.Td ta="right">{formatAmount(attempt.sent.amount)}</Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {attempt.sent.order_id}
                  </Text>
                </Table.Td>
                <Table.Td>{new Date(attempt.created).toLocaleString("en-US")}</Table.Td>
                <Table.Td>
                  <Text size="sm">{evidenceSummary(attempt)}</Text>
                  <Text size="xs" c={attempt.needs_checking ? "red" : "dimmed"}>
                    {attempt.needs_checking
                      ? "Needs checking"
                      : `Looked up until ${new Date(attempt.lookups_until).toLocaleString("en-US")}`}
                  </Text>
                </Table.Td>
                {canResolve ? (
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Button size="compact-xs" onClick={() => setDeciding({ attempt, verdict: "charged" })}>
                        It was charged
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="default"
                        onClick={() => setDeciding({ attempt, verdict: "not_charged" })}
                      >
                        It was not charged
                      </Button>
                    </Group>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {deciding ? (
        <VerdictDialog
          clientId={clientId}
          attempt={deciding.attempt}
          verdict={deciding.verdict}
          onClose={() => setDeciding(null)}
        />
      ) : null}
    </Paper>
  );
}

const OUTCOME_WORDS: Record<NeedsCheckingAttempt["evidence"][number]["outcome"], string> = {
  "no-answer": "no answer",
  unusable: "an answer that could not be used",
  "bad-stamp": "an answer whose seal did not verify",
  "not-found": "not found",
  unclear: "an unclear answer",
  mismatch: "another payment's record",
  matched: "found",
};

/** The latest thing the gateway showed, in a line. */
function evidenceSummary(attempt: NeedsCheckingAttempt): string {
  const last = attempt.evidence.at(-1);
  const lookups = `${String(attempt.lookups)} lookup${attempt.lookups === 1 ? "" : "s"}`;
  if (!last) return lookups;
  if (last.found)
    return `${lookups}; found another record: ${last.found.trans_type} ${last.found.amount}, order ${last.found.order_id}, id ${last.found.trans_id}`;
  return `${lookups}; last: ${OUTCOME_WORDS[last.outcome]} (${last.detail})`;
}

function VerdictDialog(props: {
  clientId: number;
  attempt: NeedsCheckingAttempt;
  verdict: Verdict;
  onClose: () => void;
}) {
  const { attempt, verdict, onClose } = props;
  const resolve = useResolveAttempt(props.clientId);
  const [reason, setReason] = useState("");
  const [transId, setTransId] = useState("");
  const charged = verdict === "charged";
  const submit = () =>
    resolve.mutate(
      {
        id: attempt.id,
        payload: {
          outcome: verdict,
          reason,
          ...(charged && transId.trim() !== "" ? { trans_id: transId.trim() } : {}),
        },
      },
      { onSuccess: onClose },
    );
  return (
    <Modal opened onClose={onClose} title={charged ? "It was charged" : "It was not charged"}>
      <Stack gap="sm">
        <Text size="sm">
          {attempt.customer_name}: {formatAmount(attempt.sent.amount)}, order id {attempt.sent.order_id}.{" "}
          {charged
            ? "The payment is posted to the customer's account."
            : "The attempt is closed; nothing is posted."}
        </Text>
        <Textarea
          label="Why (what you checked at the gateway)"
          required
          autosize
          minRows={2}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
        />
        {charged ? (
          <TextInput
            label="The gateway's transaction id (TRANS_ID), if you have it"
            value={transId}
            onChange={(event) => setTransId(event.currentTarget.value)}
          />
        ) : null}
        {resolve.isError ? (
          <Alert color="red" role="alert">
            {describeApiError(resolve.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={resolve.isPending} disabled={reason.trim() === ""}>
            {charged ? "Record as charged" : "Record as not charged"}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
