import type { TotpEnrolment } from "@cyclebill/domain";
import {
  Alert,
  Badge,
  Button,
  Code,
  Divider,
  Group,
  Image,
  Modal,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useState, type FormEvent } from "react";
import { describeApiError } from "../../api/api-client";
import { formatIsoDate } from "../../lib/format";
import { PasskeysPanel } from "./PasskeysPanel";
import { RecoveryCodesPanel } from "./RecoveryCodesPanel";
import { RemoveWithPasswordForm } from "./RemoveWithPasswordForm";
import {
  useConfirmTotp,
  useRegenerateRecoveryCodes,
  useRemoveTotp,
  useSecondFactorStatus,
  useStartTotp,
} from "./second-factor-api";
import { showRecoveryCodes, useShownRecoveryCodes } from "./shown-recovery-codes";
import { countOf } from "../../lib/plural";

/**
 * The Security page's second factors: an authenticator app with its recovery codes, and passkeys;
 * each set up or removed here.
 */
export function SecondFactorSection() {
  const status = useSecondFactorStatus();
  const shownCodes = useShownRecoveryCodes();
  const start = useStartTotp();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const factors = status.data ? (status.data.totp.enrolled ? 1 : 0) + status.data.passkeys.length : 0;

  const body = () => {
    if (shownCodes) return <RecoveryCodesPanel codes={shownCodes} />;
    if (status.isPending) return <Skeleton h={80} />;
    if (status.isError) return <Alert color="red">{describeApiError(status.error)}</Alert>;
    if (enrolment && !status.data.totp.enrolled)
      return <TotpSetup enrolment={enrolment} onCancel={() => setEnrolment(null)} />;
    if (status.data.totp.enrolled)
      return (
        <EnrolledTotp
          confirmedAt={status.data.totp.confirmed_at}
          codesLeft={status.data.recovery_codes_left}
          required={status.data.required && status.data.passkeys.length === 0}
        />
      );
    return (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          Use an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password…):
          after your password, signing in asks for the 6-digit code it shows.
          {status.data.required && factors === 0 ? " Your account must have one (or a passkey)." : null}
        </Text>
        <Button
          onClick={() => start.mutate(undefined, { onSuccess: setEnrolment })}
          loading={start.isPending}
        >
          Set up an authenticator app
        </Button>
        {start.isError ? <Alert color="red">{describeApiError(start.error)}</Alert> : null}
      </Stack>
    );
  };

  return (
    <Paper withBorder p="md" radius="md" data-testid="second-factor-section">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={3} size="h4">
            Two-step sign-in
          </Title>
          {status.data ? (
            <Badge color={factors > 0 ? "teal" : "gray"} variant="light">
              {factors > 0 ? "On" : "Off"}
            </Badge>
          ) : null}
        </Group>
        {body()}
        {status.data && !shownCodes ? (
          <>
            <Divider />
            <PasskeysPanel
              passkeys={status.data.passkeys}
              lastFactor={status.data.required && factors === 1}
            />
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}

function TotpSetup({ enrolment, onCancel }: { enrolment: TotpEnrolment; onCancel: () => void }) {
  const confirm = useConfirmTotp();
  const [code, setCode] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(code, { onSuccess: (answer) => showRecoveryCodes(answer.recovery_codes) });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">1. Scan this QR code with your authenticator app.</Text>
        <Image src={enrolment.qr_code} alt="QR code for your authenticator app" w={200} h={200} />
        <Text size="sm">
          Cannot scan it? Enter this secret key in the app instead:{" "}
          <Code data-testid="totp-secret" fz="sm">
            {enrolment.secret}
          </Code>
        </Text>
        <Text size="sm">2. Enter the 6-digit code the app shows.</Text>
        <TextInput
          label="6-digit code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          maw={200}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
        />
        {confirm.isError ? <Alert color="red">{describeApiError(confirm.error)}</Alert> : null}
        <Group>
          <Button type="submit" loading={confirm.isPending}>
            Confirm
          </Button>
          <Button variant="subtle" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function EnrolledTotp({
  confirmedAt,
  codesLeft,
  required,
}: {
  confirmedAt: string | null;
  codesLeft: number;
  required: boolean;
}) {
  const [dialog, setDialog] = useState<"regenerate" | "remove" | null>(null);
  return (
    <Stack gap="sm">
      <Text size="sm">
        Authenticator app set up{confirmedAt ? ` on ${formatIsoDate(confirmedAt)}` : ""}.{" "}
        <span data-testid="recovery-codes-left">{countOf(codesLeft, "recovery code")} left.</span>
      </Text>
      {codesLeft <= 3 ? <Alert color="yellow">Few recovery codes are left: make new ones.</Alert> : null}
      <Group>
        <Button variant="default" onClick={() => setDialog("regenerate")}>
          New recovery codes
        </Button>
        <Button variant="subtle" color="red" disabled={required} onClick={() => setDialog("remove")}>
          Remove authenticator app
        </Button>
      </Group>
      {required ? (
        <Text size="xs" c="dimmed">
          Your account must keep a second factor, so it cannot be removed here. If you lose your phone, sign
          in with a recovery code, or ask a provider admin to reset it.
        </Text>
      ) : null}
      <Modal opened={dialog === "regenerate"} onClose={() => setDialog(null)} title="New recovery codes">
        <RegenerateForm onDone={() => setDialog(null)} />
      </Modal>
      <Modal opened={dialog === "remove"} onClose={() => setDialog(null)} title="Remove authenticator app">
        <RemoveForm onDone={() => setDialog(null)} />
      </Modal>
    </Stack>
  );
}

function RegenerateForm({ onDone }: { onDone: () => void }) {
  const regenerate = useRegenerateRecoveryCodes();
  const [code, setCode] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    regenerate.mutate(code, {
      onSuccess: (answer) => {
        showRecoveryCodes(answer.recovery_codes);
        onDone();
      },
    });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">Your earlier recovery codes stop working. Enter a code from your app to go on.</Text>
        <TextInput
          label="6-digit code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
        />
        {regenerate.isError ? <Alert color="red">{describeApiError(regenerate.error)}</Alert> : null}
        <Button type="submit" loading={regenerate.isPending}>
          Make new codes
        </Button>
      </Stack>
    </form>
  );
}

function RemoveForm({ onDone }: { onDone: () => void }) {
  const remove = useRemoveTotp();
  return (
    <RemoveWithPasswordForm
      message="Signing in will ask only for your password, and your other sessions end. Enter your password to go on."
      pending={remove.isPending}
      error={remove.error}
      onConfirm={(password) => remove.mutate({ password }, { onSuccess: onDone })}
    />
  );
}
