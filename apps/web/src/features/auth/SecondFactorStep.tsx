import { Alert, Anchor, Button, Progress, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiFetch, describeApiError } from "../../api/api-client";
import { AuthHeading } from "./AuthHeading";
import { beginSession } from "./begin-session";

/**
 * Signing in, second step: the password was right and the account has an authenticator app. A code
 * from the app, or one of the recovery codes, starts the session.
 */
export function SecondFactorStep({
  challenge,
  remember,
  onSignedIn,
  onStartOver,
}: {
  challenge: string;
  remember: boolean;
  onSignedIn: () => void;
  onStartOver: () => void;
}) {
  const queryClient = useQueryClient();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState("");
  const verify = useMutation({
    mutationFn: async () => {
      const { token } = await apiFetch<{ token: string }>("/auth-jwt/second-factor/", {
        method: "POST",
        body: useRecovery ? { challenge, recovery_code: code } : { challenge, code },
        handles: [400, 429],
      });
      await beginSession(queryClient, token, remember);
    },
    onSuccess: onSignedIn,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    verify.mutate();
  };
  const switchMethod = () => {
    setUseRecovery((current) => !current);
    setCode("");
    verify.reset();
  };

  return (
    <Stack gap="md">
      <AuthHeading title="Two-step sign-in">
        {useRecovery
          ? "Enter one of your recovery codes. Each works once."
          : "Enter the 6-digit code from your authenticator app."}
      </AuthHeading>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            key={useRecovery ? "recovery" : "code"}
            label={useRecovery ? "Recovery code" : "6-digit code"}
            inputMode={useRecovery ? "text" : "numeric"}
            autoComplete="one-time-code"
            autoFocus
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          <Button type="submit" fullWidth loading={verify.isPending}>
            Verify
          </Button>
          {verify.isPending ? <Progress value={100} animated aria-label="Verifying" /> : null}
          {verify.isError ? (
            <Alert color="red" title="Sign-in failed">
              {describeApiError(verify.error)}
            </Alert>
          ) : null}
          <Text size="sm" ta="center">
            <Anchor component="button" type="button" onClick={switchMethod}>
              {useRecovery ? "Use a code from your authenticator app" : "Use a recovery code instead"}
            </Anchor>
            {" · "}
            <Anchor component="button" type="button" onClick={onStartOver}>
              Start over
            </Anchor>
          </Text>
        </Stack>
      </form>
    </Stack>
  );
}
