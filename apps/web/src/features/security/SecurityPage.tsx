import { Alert, Stack } from "@mantine/core";
import { PageHeader } from "../shell/PageHeader";
import { useCurrentUser } from "../auth/current-user";
import { ChangePasswordSection } from "./ChangePasswordSection";
import { SecondFactorSection } from "./SecondFactorSection";
import { SessionsSection } from "./SessionsSection";

/**
 * Security: how the signed-in user signs in, one section each: the second factor, where they are
 * signed in, and their password. A user held at enrolment sees only the second factor.
 */
export function SecurityPage() {
  const me = useCurrentUser();
  const held = me.data?.second_factor_enrolment_required ?? false;
  return (
    <Stack gap="lg" maw={960}>
      <PageHeader title="Security" description="How you sign in to Cyclebill, and where you are signed in." />
      {held ? (
        <Alert color="orange" title="Set up a second factor to continue" data-testid="enrolment-banner">
          {me.data?.userInfo.isAdmin
            ? "Provider admins must sign in with a second factor."
            : "Your organisation requires a second factor for every user."}{" "}
          Set up an authenticator app or add a passkey below; the rest of Cyclebill opens once one is set up.
        </Alert>
      ) : null}
      <SecondFactorSection />
      {held ? null : <SessionsSection />}
      {held ? null : <ChangePasswordSection />}
    </Stack>
  );
}
