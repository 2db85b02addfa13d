import {
  CONFIRM_LINK_INVALID_MESSAGE,
  EMAIL_ALREADY_PROVEN_MESSAGE,
  confirmRegistrationSchema,
  type ConfirmRegistrationInput,
} from "@cyclebill/domain";
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { apiFetch } from "../../api/api-client";
import { beginSession } from "./begin-session";
import { failureMessages } from "./failure-messages";
import { validateForm, type FieldErrors } from "./form-validation";
import { AuthHeading } from "./AuthHeading";
import { DEFAULT_AFTER_LOGIN } from "./redirect";

/**
 * The registration email's link: the link proves the address, the password typed here proves that
 * the one following it registered; then the user is signed in.
 */
export function ConfirmRegistrationPage() {
  const [searchParams] = useSearchParams();
  const email = searchParams.get("email") ?? "";
  const token = searchParams.get("token") ?? "";
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors<"password">>({});

  const confirm = useMutation({
    mutationFn: async (input: ConfirmRegistrationInput) => {
      const { token: newToken } = await apiFetch<{ token: string }>("/register/confirm/", {
        method: "POST",
        body: input,
        handles: [400, 429],
      });
      await beginSession(queryClient, newToken, false);
    },
    onSuccess: () => void navigate(DEFAULT_AFTER_LOGIN, { replace: true }),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateForm(confirmRegistrationSchema, { email, token, password });
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    confirm.mutate(result.data);
  };

  const header = (
    <AuthHeading title="Confirm your email">
      Enter the password you chose when you registered to finish creating your account.
    </AuthHeading>
  );

  if (email === "" || token === "") {
    return (
      <Stack gap="md">
        {header}
        <Alert color="yellow" title="This confirmation link is incomplete">
          Open the link from your confirmation email again, or register again to get a new one.
        </Alert>
        <Anchor component={Link} to="/register">
          Register
        </Anchor>
      </Stack>
    );
  }

  const messages = confirm.isError ? failureMessages(confirm.error) : [];
  return (
    <Stack gap="md">
      {header}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label="Email" value={email} readOnly autoComplete="username" variant="filled" />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={errors.password}
            withAsterisk
          />
          <Button type="submit" fullWidth loading={confirm.isPending}>
            Confirm and log in
          </Button>
          {confirm.isError ? (
            <Alert color="red" title="Confirmation failed">
              {messages.join(" ")}
              {messages.includes(CONFIRM_LINK_INVALID_MESSAGE) ? (
                <Text size="sm" mt="xs">
                  <Anchor component={Link} to="/register" size="sm">
                    Register again
                  </Anchor>
                </Text>
              ) : null}
              {messages.includes(EMAIL_ALREADY_PROVEN_MESSAGE) ? (
                <Text size="sm" mt="xs">
                  <Anchor component={Link} to="/forgotPassword" size="sm">
                    Forgot password
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
