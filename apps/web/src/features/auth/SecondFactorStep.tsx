import type { PasskeyOptions, SecondFactorMethod } from "@cyclebill/domain";
import { Alert, Anchor, Button, Divider, Progress, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useState, type FormEvent } from "react";
import { apiFetch, describeApiError } from "../../api/api-client";
import { passkeyErrorMessage } from "../security/passkey-errors";
import { AuthHeading } from "./AuthHeading";
import { beginSession } from "./begin-session";

/**
 * Signing in, second step: the password was right and the account has a second factor. A passkey,
 * a code from the authenticator app, or one of the recovery codes starts the session.
 */
export function SecondFactorStep({
  challenge,
  remember,
  methods,
  onSignedIn,
  onStartOver,
}: {
  challenge: string;
  remember: boolean;
  methods: SecondFactorMethod[];
  onSignedIn: () => void;
  onStartOver: () => void;
}) {
  const queryClient = useQueryClient();
  const hasApp = methods.includes("totp");
  const hasPasskey = methods.includes("passkey");
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
  const passkey = useMutation({
    mutationFn: async () => {
      const { options } = await apiFetch<PasskeyOptions>("/auth-jwt/second-factor/passkey-options/", {
        method: "POST",
        body: { challenge },
        handles: [400],
      });
      const answer = await startAuthentication({
        // The server builds these options with @simplewebauthn/server, for this very call.
        optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
      });
      const { token } = await apiFetch<{ token: string }>("/auth-jwt/second-factor/", {
        method: "POST",
        body: { challenge, passkey: answer },
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
        {!hasApp
          ? "Use your passkey to finish signing in."
          : useRecovery
            ? "Enter one of your recovery codes. Each works once."
            : "Enter the 6-digit code from your authenticator app."}
      </AuthHeading>
      {hasPasskey ? (
        <Stack gap="xs">
          <Button
            fullWidth
            variant={hasApp ? "default" : "filled"}
            loading={passkey.isPending}
            onClick={() => passkey.mutate()}
            autoFocus={!hasApp}
          >
            Use a passkey
          </Button>
          {passkey.isError ? (
            <Alert color="red" title="Sign-in failed">
              {passkeyErrorMessage(passkey.error) ?? describeApiError(passkey.error)}
            </Alert>
          ) : null}
          {hasApp ? <Divider label="or" labelPosition="center" /> : null}
        </Stack>
      ) : null}
      {hasApp ? (
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
          </Stack>
        </form>
      ) : null}
      <Text size="sm" ta="center">
        {hasApp ? (
          <>
            <Anchor component="button" type="button" onClick={switchMethod}>
              {useRecovery ? "Use a code from your authenticator app" : "Use a recovery code instead"}
            </Anchor>
            {" · "}
          </>
        ) : null}
        <Anchor component="button" type="button" onClick={onStartOver}>
          Start over
        </Anchor>
      </Text>
    </Stack>
  );
}
