import { changePasswordSchema, PASSWORD_MISMATCH_MESSAGE } from "@cyclebill/domain";
import { Alert, Button, Card, Group, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import { fieldErrorsFromBody } from "../../api/field-errors";
import { validateForm, type FieldErrors } from "../auth/form-validation";
import { useChangePassword } from "./security-api";
import { countOf, plural } from "../../lib/plural";

type Field = "current_password" | "new_password" | "confirmation";

const EMPTY = { current_password: "", new_password: "", confirmation: "" };

/** "Change password": the current one proves it is you; every other session then ends. */
export function ChangePasswordSection() {
  const change = useChangePassword();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [problem, setProblem] = useState<string | null>(null);

  const input = (field: Field) => ({
    value: values[field],
    error: errors[field],
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [field]: value }));
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    const result = validateForm(changePasswordSchema, values);
    const found: FieldErrors<Field> = result.ok ? {} : { ...result.errors };
    if (!found.confirmation && values.confirmation !== values.new_password)
      found.confirmation = PASSWORD_MISMATCH_MESSAGE;
    if (!result.ok || Object.keys(found).length > 0) {
      setErrors(found);
      return;
    }
    setErrors({});
    change.mutate(result.data, {
      onSuccess: ({ ended_sessions }) => {
        setValues(EMPTY);
        notifications.show({
          color: "teal",
          message:
            ended_sessions > 0
              ? `Your password was changed, and ${countOf(ended_sessions, "other session")} ${plural(ended_sessions, "was", "were")} signed out.`
              : "Your password was changed.",
        });
      },
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        const fields = fieldErrorsFromBody<Field>(error.body, ["current_password", "new_password"]);
        setErrors(fields);
        if (Object.keys(fields).length === 0) setProblem(describeApiError(error));
      },
    });
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="change-password-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm" maw={420}>
          <div>
            <Title order={2} size="h4" id="change-password-title">
              Change password
            </Title>
            <Text size="sm" c="dimmed">
              At least 8 characters, and not a commonly used one. Your other sessions are signed out; this one
              stays.
            </Text>
          </div>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            withAsterisk
            {...input("current_password")}
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            withAsterisk
            {...input("new_password")}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            withAsterisk
            {...input("confirmation")}
          />
          {problem ? (
            <Alert color="red" title="The password was not changed">
              {problem}
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
