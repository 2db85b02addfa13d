import { Stack } from "@mantine/core";
import { PageHeader } from "../shell/PageHeader";
import { ClientEditor } from "./ClientEditor";
import { NoClientNotice } from "./ClientRequired";
import { useClientContext } from "../../shared/client-context";

/** Settings: the client editor for the selected client (admins) or the user's own client. */
export function SettingsPage() {
  const { clientId } = useClientContext();
  if (clientId === null) {
    return (
      <Stack gap="md">
        <PageHeader title="Settings" />
        <NoClientNotice what="settings" />
      </Stack>
    );
  }
  return <ClientEditor clientId={clientId} title="Settings" />;
}
