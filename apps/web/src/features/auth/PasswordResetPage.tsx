import {
  PASSWORD_MIN_LENGTH,
  RESET_TOKEN_INVALID_MESSAGE,
  resetPasswordSchema,
  type ResetPasswordInput,
} from "@cyclebill/domain";
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { apiFetch } from "../../api/api-client";
import { failureMessages } from "./failure-messages";
import { validateForm, type FieldErrors } from "./form-validation";
import { AuthHeading } from "./AuthHeading";

type ResetField = "password" | "password_confirmation";

export function PasswordResetPage() {
  const [searchParams] = useSearchParams();
  // The emailed link carries who and which token; the user only chooses the new password.
  const email = searchParams.get("email") ?? "";
  const token = searchParams.get("token") ?? "";
  const username = searchParams.get("username") ?? "";
  const linkComplete = email !== "" && token !== "";

  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [errors, setErrors] = useState<FieldErrors<ResetField>>({});

  const reset = useMutation({
    mutationFn: (input: ResetPasswordInput) =>
      apiFetch<{ success: boolean }>("/reset-password/", { method: "POST", body: input, handles: [400] }),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateForm(resetPasswordSchema, {
      email,
      token,
      password,
      password_confirmation: confirmation,
    });
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    reset.mutate(result.data);
  };

  const header = (
    <AuthHeading title="Reset Password">Choose a new password for your Cyclebill account.</AuthHeading>
  );

  if (reset.isSuccess && reset.data.success !== false) {
    return (
      <Stack gap="md">
        {header}
        <Alert color="teal" title="Reset password succeeded">
          Your new password is set. You can log in with it now.
        </Alert>
        <Anchor component={Link} to="/">
          Log in
        </Anchor>
      </Stack>
    );
  }

  if (!linkComplete) {
    return (
      <Stack gap="md">
        {header}
        <Alert color="yellow" title="This reset link is incomplete">
          Open the link from your password reset email again, or request a new one.
        </Alert>
        <Anchor component={Link} to="/forgotPassword">
          Request a new reset link
        </Anchor>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      {header}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {/* Read-only so password managers save the new password under the right account. */}
          <TextInput
            label="Account"
            value={username || email}
            readOnly
            autoComplete="username"
            variant="filled"
          />
          <PasswordInput
            label="New password"
            description={`At least ${PASSWORD_MIN_LENGTH} characters, not a common password.`}
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={errors.password}
            withAsterisk
          />
          <PasswordInput
            label="Confirm password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.currentTarget.value)}
            error={errors.password_confirmation}
            withAsterisk
          />
          <Button type="submit" fullWidth loading={reset.isPending}>
            Reset Password
          </Button>
          {reset.isError || reset.isSuccess ? (
            <Alert color="red" title="Reset password failed">
              {reset.isError ? failureMessages(reset.error).join(" ") : null}
              {reset.isError && failureMessages(reset.error).includes(RESET_TOKEN_INVALID_MESSAGE) ? (
                <Text size="sm" mt="xs">
                  <Anchor component={Link} to="/forgotPassword" size="sm">
                    Request a new reset link
                  </Anchor>
                </Text>
              ) : null}
            </Alert>
          ) : null}
        </Stack>
      </form>
    </Stack>
  );
}
