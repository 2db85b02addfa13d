import { Button, Group, List, Modal, Stack, Text } from "@mantine/core";
import { DUPLICATE_TRANSACTION_MESSAGE } from "@cyclebill/domain";
import type { SaveFailure } from "./transactions-api";

/**
 * The answers to a failed save (spec section 8): the duplicate question (Yes saves again with force,
 * No dismisses) or the error modal.
 */
export function SaveFeedback({
  failure,
  onForce,
  onDismiss,
  forcing,
}: {
  failure: SaveFailure | null;
  onForce: () => void;
  onDismiss: () => void;
  forcing?: boolean;
}) {
  return (
    <>
      <Modal
        opened={failure?.kind === "duplicate"}
        onClose={onDismiss}
        title={DUPLICATE_TRANSACTION_MESSAGE}
        centered
      >
        <Stack gap="lg">
          <Text size="sm">
            A transaction with the same customer, code, amount and service date was entered in the last 24
            hours. Do you want to enter this transaction anyway?
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onDismiss} disabled={forcing}>
              No
            </Button>
            <Button onClick={onForce} loading={forcing} data-autofocus>
              Yes
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal
        opened={failure?.kind === "error"}
        onClose={onDismiss}
        title={failure?.kind === "error" ? failure.title : ""}
        centered
      >
        {failure?.kind === "error" ? (
          <Stack gap="md">
            <Text size="sm">{failure.message}</Text>
            {failure.details.length > 1 ? (
              <List size="sm">
                {failure.details.map((detail) => (
                  <List.Item key={detail}>{detail}</List.Item>
                ))}
              </List>
            ) : null}
            <Group justify="flex-end">
              <Button onClick={onDismiss} data-autofocus>
                OK
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}
