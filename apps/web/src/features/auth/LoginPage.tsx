import type { LoginAnswer, LoginInput, SecondFactorMethod } from "@cyclebill/domain";
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Loader,
  PasswordInput,
  Progress,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { apiFetch, describeApiError } from "../../api/api-client";
import { useSessionToken } from "../../api/session";
import { useCurrentUser } from "./current-user";
import type { FieldErrors } from "./form-validation";
import { safeRedirectTarget } from "./redirect";
import { AuthHeading } from "./AuthHeading";
import { beginSession } from "./begin-session";
import { SecondFactorStep } from "./SecondFactorStep";

type LoginField = "username" | "password";

// The shared schema brings zod (about 20 kB compressed): it loads once the form shows, off the first
// screen's critical path, and is long there by the time the user submits.
const loadValidation = () => import("./login-validation");

export function LoginPage() {
  const [searchParams] = useSearchParams();
  const target = safeRedirectTarget(searchParams.get("redirect"));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const token = useSessionToken();
  const me = useCurrentUser();

  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [rememberMe, setRememberMe] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<LoginField>>({});
  // The password was right and the account has a second factor: the code step comes next.
  const [challenge, setChallenge] = useState<{
    challenge: string;
    remember: boolean;
    methods: SecondFactorMethod[];
  } | null>(null);
  useEffect(() => {
    void loadValidation();
  }, []);

  const login = useMutation({
    mutationFn: async (input: LoginInput) => {
      const answer = await apiFetch<LoginAnswer>("/auth-jwt/", {
        method: "POST",
        body: input,
        // Wrong credentials (400) and lockouts (429) read 'Login failed' on this page, not a toast.
        handles: [400, 429],
      });
      if ("second_factor_required" in answer) {
        setChallenge({
          challenge: answer.challenge,
          remember: input.remember_me ?? false,
          methods: answer.methods,
        });
        return false;
      }
      await beginSession(queryClient, answer.token, input.remember_me ?? false);
      return true;
    },
    onSuccess: (signedIn) => {
      if (signedIn) void navigate(target, { replace: true });
    },
  });

  if (challenge)
    return (
      <SecondFactorStep
        challenge={challenge.challenge}
        remember={challenge.remember}
        methods={challenge.methods}
        onSignedIn={() => void navigate(target, { replace: true })}
        onStartOver={() => {
          setChallenge(null);
          setPassword("");
          login.reset();
        }}
      />
    );

  // The stored-token check on start: a failure is only logged (in fetchMe); the form stays.
  if (login.isIdle && me.isSuccess) return <Navigate to={target} replace />;

  const checkingStoredToken = login.isIdle && token !== null && me.isPending;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { validateLogin } = await loadValidation();
    const result = validateLogin({ username, password, remember_me: rememberMe });
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    login.mutate(result.data);
  };

  return (
    <Stack gap="md">
      <AuthHeading title="Login">Sign in to manage billing and receivables.</AuthHeading>

      {checkingStoredToken ? (
        <Group gap="sm" py="md">
          <Loader size="sm" />
          <Text c="dimmed">Checking your saved session…</Text>
        </Group>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="md">
            <TextInput
              label="Username or email"
              autoComplete="username"
              value={username}
              onChange={(event) => setUsername(event.currentTarget.value)}
              error={errors.username}
              withAsterisk
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={errors.password}
              withAsterisk
            />
            <Group justify="space-between">
              <Checkbox
                label="Remember me"
                checked={rememberMe}
                onChange={(event) => setRememberMe(event.currentTarget.checked)}
              />
              <Anchor component={Link} to="/forgotPassword" size="sm">
                Forgot password?
              </Anchor>
            </Group>
            <Button type="submit" fullWidth loading={login.isPending}>
              Log in
            </Button>
            {login.isPending ? <Progress value={100} animated aria-label="Logging in" /> : null}
            {login.isError ? (
              <Alert color="red" title="Login failed">
                {describeApiError(login.error)}
              </Alert>
            ) : null}
            {login.isSuccess && login.data ? <Alert color="teal" title="Login succeeded" /> : null}
            <Text size="sm" ta="center">
              No account yet?{" "}
              <Anchor component={Link} to="/register">
                Register
              </Anchor>
            </Text>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
