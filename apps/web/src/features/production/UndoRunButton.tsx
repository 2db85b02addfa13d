import type { ProductionRun } from "@cyclebill/domain";
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from "@mantine/core";
import { useState } from "react";
import { describeApiError } from "../../api/api-client";
import { useUndoRun } from "./production-api";
import { countOf } from "../../lib/plural";

type RunPart = ProductionRun["clients"][number];

/**
 * Admin Processing: undo one client's part of a run while none of it went out. Shows who undid it
 * and when once done; the server answers 409 with what went out after delivery started.
 */
export function UndoRunButton({ runId, part }: { runId: number; part: RunPart }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const undo = useUndoRun();
  const state = part.undo;
  if (state?.undone_at) {
    const removed = state.removed;
    return (
      <Text size="sm" c="orange" data-testid="undo-state">
        Undone by {state.requested_by_name ?? "an admin"} on {new Date(state.undone_at).toLocaleString()}
        {removed
          ? ` (${countOf(removed.statements, "statement")}, ${countOf(removed.entries, "charge")} withdrawn)`
          : ""}
      </Text>
    );
  }
  if (state && (state.status === "queued" || state.status === "running"))
    return (
      <Text size="sm" data-testid="undo-state">
        Undoing…
      </Text>
    );
  // Offered only while the server would take it (nothing of the part went out yet); a dialog open
  // when that changes stays, with the server's refusal in it.
  const offered = part.actions.includes("undo");
  if (!offered && !open) return null;
  const confirm = () =>
    undo.mutate(
      { runId, clientId: part.client_id, reason: reason.trim() },
      { onSuccess: () => setOpen(false) },
    );
  // A refusal (something went out meanwhile) stands: pressing again would be refused again.
  const refused = undo.isError;
  return (
    <Stack gap={4}>
      {state?.status === "failed" ? (
        <Text size="sm" c="red">
          Undo failed: {state.error}
        </Text>
      ) : null}
      {offered ? (
        <Button size="compact-xs" variant="light" color="orange" onClick={() => setOpen(true)}>
          Undo run
        </Button>
      ) : null}
      <Modal opened={open} onClose={() => setOpen(false)} title={`Undo ${part.client_name}'s run?`} centered>
        <Stack gap="sm">
          <Text size="sm">
            Its recurring charges and late fees are taken off the ledger, its statements withdrawn, its pools
            and queued emails deleted, and the client's billing dates restored, so the cycle can be run again.
            Only while nothing has gone out: no email accepted by the mail server, no pool downloaded.
          </Text>
          <Textarea
            label="Why is the run undone?"
            description="Kept in the audit trail with your name."
            required
            autosize
            minRows={2}
            maxLength={500}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
          {undo.isError ? (
            <Alert color="red" title="Cannot undo" data-testid="undo-error">
              {describeApiError(undo.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Keep the run
            </Button>
            <Button
              color="orange"
              loading={undo.isPending}
              disabled={!reason.trim() || refused}
              onClick={confirm}
            >
              Undo the run
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
