import { Alert, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { DUPLICATE_TRANSACTION_MESSAGE } from "@cyclebill/domain";
import {
  ZERO_CREATED_MESSAGE,
  batchResultMessage,
  refusedNames,
  refusedNote,
  type BatchMember,
  type BatchResult,
  type RefusalReason,
} from "./group-batch-api";

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

export type LeftOutMember = { member: BatchMember; reason: RefusalReason };

/**
 * Before saving: the included customers the server will refuse with the chosen code, by name and
 * why. They are not in the count or total above; the batch still names them, so its result does too.
 */
export function BatchLeftOutNotice({ leftOut }: { leftOut: readonly LeftOutMember[] }) {
  if (leftOut.length === 0) return null;
  const verb = leftOut.length === 1 ? "customer will be" : "customers will be";
  const names = refusedNames(
    leftOut.map(({ member, reason }) => ({
      customer_no: member.customer_no,
      customer_name: member.customer_name,
      reason,
    })),
  );
  return (
    // A region, not an alert: it follows the code and the switches, and is read when reached.
    <Alert color="yellow" role="region" title="Customers who will be left out">
      <Text size="sm">
        {leftOut.length} {verb} left out: {names}.
      </Text>
      <Text size="sm" mt={4}>
        They cannot take this entry, so they are not counted in the total.
      </Text>
    </Alert>
  );
}

/**
 * The server refused the batch as a duplicate of one added in the last 24 hours (the single add's
 * question, for a batch): who already has it, as the server names them; Yes adds it again anyway.
 */
export function BatchDuplicateDialog(props: {
  /** The server's words naming the customers, or null when closed. */
  message: string | null;
  onForce: () => void;
  onDismiss: () => void;
}) {
  return (
    <Modal
      opened={props.message !== null}
      onClose={props.onDismiss}
      title={DUPLICATE_TRANSACTION_MESSAGE}
      centered
    >
      <Stack gap="lg">
        <Text size="sm">{props.message}</Text>
        <Text size="sm">Do you want to add these transactions again anyway?</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={props.onDismiss} data-autofocus>
            No
          </Button>
          <Button onClick={props.onForce}>Yes, add them again</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
