import { Button, Group, Menu, Modal, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import { formatIsoDate } from "../../lib/format";
import type { DocumentRow } from "./documents-api";
import {
  useStatementAction,
  type StatementActionResult,
  type StatementRowAction,
} from "./statement-actions-api";

const LABELS: Record<StatementRowAction, string> = {
  reissue: "Reissue corrected…",
  resend_email: "Resend email",
  add_to_pool: "Add to next pool",
};

/**
 * Corrected, replaced, or no longer proving itself: what a statement row says of its version, as
 * short lines under its status (badges were cut off in the narrow column).
 */
export function StatementCorrectionBadges({ row }: { row: DocumentRow }) {
  const correction = row.correction;
  if (!correction) return null;
  const line = (text: string, color: string, title: string) => (
    <Text size="xs" fw={700} c={color} title={title} style={{ whiteSpace: "nowrap" }}>
      {text}
    </Text>
  );
  return (
    <>
      {correction.version > 1
        ? line(
            `Corrected ${formatIsoDate(correction.corrected_on)}`,
            "red.8",
            `Version ${String(correction.version)}: reissued after its period changed`,
          )
        : null}
      {correction.replaced_by !== null
        ? line("Replaced", "dimmed", "Kept as it was sent; a corrected version replaced it")
        : null}
      {!correction.proves
        ? line(
            "Needs correction",
            "orange.8",
            "Its period was reopened and changed: it no longer adds up to the ledger",
          )
        : null}
      {correction.queued_for_pool ? line("In next pool", "blue.8", "Prints in the client's next pool") : null}
    </>
  );
}

function resultMessage(result: StatementActionResult, name: string): { color: string; message: string } {
  if (result.action === "reissue")
    return { color: "teal", message: `Statement ${String(result.statementNum)} was reissued as corrected.` };
  if (result.action === "add_to_pool")
    return { color: "teal", message: `The ${name} will print in the client's next pool.` };
  if (result.resend.status === "sent")
    return { color: "teal", message: `The ${name} was emailed to ${result.resend.recipient}.` };
  return {
    color: "red",
    message: `The ${name} was not emailed: ${result.resend.error ?? "the mail server did not take it"}.`,
  };
}

/** A statement row's own actions, as its record allows them. */
export function StatementActionsMenu({ row, clientId }: { row: DocumentRow; clientId: number }) {
  const mutation = useStatementAction(clientId);
  const [confirming, setConfirming] = useState(false);
  const offered = (["reissue", "resend_email", "add_to_pool"] as const).filter((action) =>
    (row.actions as readonly string[]).includes(action),
  );
  if (row.document !== "statement" || offered.length === 0) return null;
  const name = `statement ${String(row.invoice_num)}`;
  const run = (action: StatementRowAction) =>
    mutation.mutate(
      { id: row.id, statementNum: row.invoice_num, action },
      {
        onSuccess: (result) => {
          setConfirming(false);
          notifications.show(resultMessage(result, name));
        },
        onError: (error) => {
          setConfirming(false);
          if (error instanceof ApiError && !error.handledByCaller) return;
          notifications.show({
            color: "red",
            title: `${LABELS[action].replace("…", "")}: refused`,
            message: describeApiError(error),
            autoClose: 10_000,
          });
        },
      },
    );
  return (
    <>
      <Menu position="bottom-end" shadow="md" width={220} withinPortal>
        <Menu.Target>
          <Button
            size="compact-sm"
            variant="subtle"
            loading={mutation.isPending}
            aria-label={`More actions for ${name}`}
          >
            More
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {offered.map((action) => (
            <Menu.Item
              key={action}
              color={action === "reissue" ? "red" : undefined}
              onClick={() => (action === "reissue" ? setConfirming(true) : run(action))}
            >
              {LABELS[action]}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={`Reissue ${name}`}>
        <Stack>
          <Text size="sm">
            Its period was reopened and changed, so it no longer matches the ledger. A corrected version with
            the same number, marked Corrected with today&apos;s date, takes its place; the one sent stays on
            file as replaced. Then resend it by email or add it to the next pool.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button color="red" loading={mutation.isPending} onClick={() => run("reissue")}>
              Reissue corrected statement
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
