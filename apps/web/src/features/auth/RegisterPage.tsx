import { PASSWORD_MIN_LENGTH, registrationSchema, type RegistrationInput } from "@cyclebill/domain";
import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { ApiError, allMessages, apiFetch, describeApiError } from "../../api/api-client";
import { validateForm, type FieldErrors } from "./form-validation";
import { AuthHeading } from "./AuthHeading";

type RegistrationField = keyof RegistrationInput;
// The same answer whether or not the email already had an account (its owner is emailed instead).
type RegisteredUser = {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  name: string;
};

export const DUPLICATE_EMAIL_HINT =
  "Check if your email has already been used to register an account. Use Forgot Password if you need to send password reset email.";

const EMPTY: Record<RegistrationField, string> = {
  firstName: "",
  lastName: "",
  email: "",
  password: "",
  confirmPassword: "",
};

export function RegisterPage() {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<RegistrationField>>({});

  const register = useMutation({
    mutationFn: (input: RegistrationInput) =>
      apiFetch<RegisteredUser>("/register/", { method: "POST", body: input, handles: [400] }),
  });

  const field = (name: RegistrationField) => ({
    value: values[name],
    error: errors[name],
    withAsterisk: true,
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateForm(registrationSchema, values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    register.mutate(result.data);
  };

  if (register.isSuccess) {
    const user = register.data;
    const name = `${user.firstName} ${user.lastName}`.trim() || user.name;
    return (
      <Stack gap="md">
        <title>Register · Cyclebill</title>
        <Title order={1} size="h2">
          Register
        </Title>
        <Alert color="teal" title={`Registration succeeded, ${name}`}>
          We sent a link to {user.email}. Open it and enter your password to confirm the address; you can log
          in after that. An administrator then attaches your account to your business before you can see its
          customers.
        </Alert>
        <Anchor component={Link} to="/">
          Go to login
        </Anchor>
      </Stack>
    );
  }

  const details = register.error instanceof ApiError ? allMessages(register.error.body) : [];
  const duplicate = details.some((message) => message.includes("duplicate key"));

  return (
    <Stack gap="md">
      <AuthHeading title="Register">Create an account to work with your business&apos;s billing.</AuthHeading>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Group grow align="flex-start">
            <TextInput label="First name" autoComplete="given-name" {...field("firstName")} />
            <TextInput label="Last name" autoComplete="family-name" {...field("lastName")} />
          </Group>
          <TextInput label="Email" type="email" autoComplete="email" {...field("email")} />
          <PasswordInput
            label="Password"
            description={`At least ${PASSWORD_MIN_LENGTH} characters, not a common password.`}
            autoComplete="new-password"
            {...field("password")}
          />
          <PasswordInput label="Confirm password" autoComplete="new-password" {...field("confirmPassword")} />
          <Button type="submit" fullWidth loading={register.isPending}>
            Register
          </Button>
          {register.isError ? (
            <Alert color="red" title="Registration failed.">
              <Stack gap="xs">
                {duplicate ? <Text size="sm">{DUPLICATE_EMAIL_HINT}</Text> : null}
                {details.length > 0 ? (
                  <div>
                    <Text size="sm" fw={600}>
                      Details
                    </Text>
                    <List size="sm">
                      {details.map((message) => (
                        <List.Item key={message}>{message}</List.Item>
                      ))}
                    </List>
                  </div>
                ) : (
                  <Text size="sm">{describeApiError(register.error)}</Text>
                )}
              </Stack>
            </Alert>
          ) : null}
          <Text size="sm" ta="center">
            Already registered?{" "}
            <Anchor component={Link} to="/">
              Log in
            </Anchor>
            {" · "}
            <Anchor component={Link} to="/forgotPassword">
              Forgot password
            </Anchor>
          </Text>
        </Stack>
      </form>
    </Stack>
  );
}
