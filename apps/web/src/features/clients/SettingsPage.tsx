import { PageHeader } from "../shell/PageHeader";
import { ClientEditor } from "./ClientEditor";
import { NoClientPage } from "./ClientRequired";
import { useClientContext } from "../../shared/client-context";

/** Settings: the client editor for the selected client (admins) or the user's own client. */
export function SettingsPage() {
  const { clientId } = useClientContext();
  if (clientId === null) {
    return <NoClientPage header={<PageHeader title="Settings" />} what="settings" />;
  }
  return <ClientEditor clientId={clientId} title="Settings" />;
}
