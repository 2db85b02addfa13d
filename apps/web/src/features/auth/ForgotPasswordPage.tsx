import { forgotPasswordSchema, type ForgotPasswordInput } from "@cyclebill/domain";
import { Alert, Anchor, Button, Stack, Text, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { apiFetch } from "../../api/api-client";
import { validateForm, type FieldErrors } from "./form-validation";
import { AuthHeading } from "./AuthHeading";

export const FORGOT_SUCCEEDED = "Forgot password succeeded, check your email for a password reset link";
export const FORGOT_FAILED = "Forgot password failed, double check the entered email.";

export function ForgotPasswordPage() {
  const [email, setEmail] = useState("");
  const [errors, setErrors] = useState<FieldErrors<"email">>({});

  const request = useMutation({
    mutationFn: (input: ForgotPasswordInput) =>
      apiFetch<{ success: boolean }>("/forgot-password/", { method: "POST", body: input, handles: [400] }),
  });
  const succeeded = request.isSuccess && request.data.success !== false;
  const failed = request.isError || (request.isSuccess && !succeeded);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateForm(forgotPasswordSchema, { email });
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    request.mutate(result.data);
  };

  return (
    <Stack gap="md">
      <AuthHeading title="Forgot Password">
        Enter the email you registered with and we will send you a link to choose a new password.
      </AuthHeading>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={errors.email}
            withAsterisk
          />
          <Button type="submit" fullWidth loading={request.isPending}>
            Send Password Reset
          </Button>
          {succeeded ? <Alert color="teal" title={FORGOT_SUCCEEDED} /> : null}
          {failed ? <Alert color="red" title={FORGOT_FAILED} /> : null}
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/">
              Back to login
            </Anchor>
          </Text>
        </Stack>
      </form>
    </Stack>
  );
}
