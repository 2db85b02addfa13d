import { Alert, Text } from "@mantine/core";
import { ZERO_CREATED_MESSAGE, batchResultMessage, refusedNote, type BatchResult } from "./group-batch-api";

export type Outcome = { kind: "created"; result: BatchResult } | { kind: "failed"; message: string } | null;

/** What the last Add Transactions did: created (how many, who was left out), none created, or failed. */
export function BatchOutcome({ outcome, onDismiss }: { outcome: Outcome; onDismiss: () => void }) {
  // The customers left out go on a line of their own, after the spec's sentence.
  const skippedNote = (result: BatchResult) => {
    const note = refusedNote(result).trim();
    return note === "" ? null : (
      <Text size="sm" mt={6}>
        {note}
      </Text>
    );
  };

  return (
    <>
      {outcome?.kind === "created" && outcome.result.count > 0 ? (
        <Alert
          color="teal"
          title="Transactions created"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={onDismiss}
        >
          {batchResultMessage(outcome.result)}
          {skippedNote(outcome.result)}
        </Alert>
      ) : null}
      {outcome?.kind === "created" && outcome.result.count === 0 ? (
        <Alert
          color="yellow"
          title="No transactions created"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={onDismiss}
        >
          {ZERO_CREATED_MESSAGE}
          {skippedNote(outcome.result)}
        </Alert>
      ) : null}
      {outcome?.kind === "failed" ? (
        <Alert
          color="red"
          title="The transactions were not created"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={onDismiss}
        >
          {outcome.message}
        </Alert>
      ) : null}
    </>
  );
}
