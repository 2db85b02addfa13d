import { Alert, Button, PasswordInput, Stack, Text } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { describeApiError } from "../../api/api-client";

type Props = {
  /** What removing does, ending with what to enter. */
  message: string;
  pending: boolean;
  error: Error | null;
  onConfirm: (password: string) => void;
};

/** Removing a second factor (the app or a passkey) asks for the current password first. */
export function RemoveWithPasswordForm({ message, pending, error, onConfirm }: Props) {
  const [password, setPassword] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onConfirm(password);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{message}</Text>
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        {error ? <Alert color="red">{describeApiError(error)}</Alert> : null}
        <Button type="submit" color="red" loading={pending}>
          Remove
        </Button>
      </Stack>
    </form>
  );
}
