import { Stack } from "@mantine/core";
import { PageHeader } from "../shell/PageHeader";
import { ChangePasswordSection } from "./ChangePasswordSection";
import { SessionsSection } from "./SessionsSection";

/**
 * Security: the signed-in user's own sign-in settings, one section each (second factors will join
 * them here).
 */
export function SecurityPage() {
  return (
    <Stack gap="lg">
      <PageHeader title="Security" description="Where you are signed in, and your password." />
      <SessionsSection />
      <ChangePasswordSection />
    </Stack>
  );
}
