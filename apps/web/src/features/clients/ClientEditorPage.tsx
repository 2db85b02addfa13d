import { Anchor, Stack } from "@mantine/core";
import { Link, useParams } from "react-router";
import { NotFoundPage } from "../shell/NotFoundPage";
import { ClientEditor } from "./ClientEditor";
import { AdminOnly } from "./ClientRequired";
import { parseClientId, useClientContext } from "../../shared/client-context";

/** /clients/{id}: an admin edits any client from the client list. */
export function ClientEditorPage() {
  const params = useParams();
  const { withClient } = useClientContext();
  const clientId = parseClientId(params.clientId ?? null);
  if (clientId === null) return <NotFoundPage />;
  return (
    <Stack gap="md">
      <AdminOnly>
        <ClientEditor
          clientId={clientId}
          title="Edit Client"
          back={
            <Anchor component={Link} to={withClient("/clients")} size="sm">
              ← Back to clients
            </Anchor>
          }
        />
      </AdminOnly>
    </Stack>
  );
}
