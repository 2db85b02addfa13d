import { Alert, List } from "@mantine/core";
import type { SaveStatus } from "./use-customer-save";

export const CUSTOMER_SAVED_MESSAGE = "Customer saved.";

/** Under the tabs: "Customer saved." for a moment, or why the save failed. */
export function CustomerSaveAlert({ status, onClose }: { status: SaveStatus; onClose: () => void }) {
  if (status.kind === "saved") {
    return (
      <Alert color="teal" mt="sm" title={CUSTOMER_SAVED_MESSAGE} withCloseButton onClose={onClose}>
        {null}
      </Alert>
    );
  }
  if (status.kind !== "failed") return null;
  return (
    <Alert
      color="red"
      mt="sm"
      title="The customer was not saved"
      withCloseButton
      onClose={onClose}
      role="alert"
    >
      <List size="sm">
        {status.messages.map((message) => (
          <List.Item key={message}>{message}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
