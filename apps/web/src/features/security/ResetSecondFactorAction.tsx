import { Alert, Button, Modal, Stack, Text, Textarea } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { describeApiError } from "../../api/api-client";
import { useResetSecondFactor } from "./second-factor-api";

/**
 * Provider admins: remove a user's lost second factor, with a reason (kept in the audit trail). The
 * user's sessions end; they set up a new factor at their next sign-in.
 */
export function ResetSecondFactorAction({ user }: { user: { id: number; email: string } }) {
  const [opened, setOpened] = useState(false);
  const [reason, setReason] = useState("");
  const reset = useResetSecondFactor();
  const close = () => {
    setOpened(false);
    setReason("");
    reset.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset.mutate(
      { userId: user.id, reason },
      {
        onSuccess: (answer) => {
          notifications.show({ color: "teal", message: `${user.email}: ${answer.detail}` });
          close();
        },
      },
    );
  };
  return (
    <>
      <Button
        size="compact-sm"
        variant="subtle"
        color="orange"
        aria-label={`Reset second factor of ${user.email}`}
        onClick={() => setOpened(true)}
      >
        Reset 2FA
      </Button>
      <Modal opened={opened} onClose={close} title="Reset second factor">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">
              {user.email} loses their authenticator app, recovery codes and passkeys, and is signed out
              everywhere. Do this only once you are sure who asked.
            </Text>
            <Textarea
              label="Reason"
              description="Kept in the audit trail, e.g. the ticket and how you checked who asked."
              withAsterisk
              autosize
              minRows={2}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
            />
            {reset.isError ? <Alert color="red">{describeApiError(reset.error)}</Alert> : null}
            <Button type="submit" color="orange" loading={reset.isPending} disabled={reason.trim() === ""}>
              Reset second factor
            </Button>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
