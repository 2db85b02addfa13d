import { Button, Group, Modal, Stack, Text, Textarea } from "@mantine/core";
import { useState, type ReactNode } from "react";

export type ConfirmDeleteDialogProps = {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  loading?: boolean;
  /** Asks for a reason (optional to give) that the audit trail keeps with the change. */
  reasonLabel?: string;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
};

/** The spec's delete confirmation dialog: nothing is removed until the user confirms. */
export function ConfirmDeleteDialog(props: ConfirmDeleteDialogProps) {
  const {
    opened,
    title,
    children,
    confirmLabel = "Delete",
    loading,
    reasonLabel,
    onConfirm,
    onCancel,
  } = props;
  const [reason, setReason] = useState("");
  const close = () => {
    setReason("");
    onCancel();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack gap="lg">
        <Text size="sm" component="div">
          {children}
        </Text>
        {reasonLabel ? (
          <Textarea
            label={reasonLabel}
            description="Optional; kept in the audit trail with your name."
            autosize
            minRows={2}
            maxLength={500}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={loading}>
            Cancel
          </Button>
          <Button
            color="red"
            onClick={() => {
              onConfirm(reason.trim());
              setReason("");
            }}
            loading={loading}
            data-autofocus
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
