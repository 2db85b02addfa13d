import { Grid, Stack } from "@mantine/core";
import { useSearchParams } from "react-router";
import { NoClientPage } from "../clients/ClientRequired";
import { parseClientId, useClientContext } from "../../shared/client-context";
import { PageHeader } from "../shell/PageHeader";
import { GroupDetailPanel } from "./GroupDetailPanel";
import { GroupListPanel } from "./GroupListPanel";
import { useGroups } from "./groups-api";

export const GROUP_PARAM = "route_id";

const TITLE = "Group Admin";
const DESCRIPTION = "Groups of customers billed together, in the order of their stops.";

export function GroupAdminPage() {
  const { clientId } = useClientContext();
  if (clientId === null) {
    return <NoClientPage header={<PageHeader title={TITLE} description={DESCRIPTION} />} what="groups" />;
  }
  return <GroupAdmin key={clientId} clientId={clientId} />;
}

function GroupAdmin({ clientId }: { clientId: number }) {
  const [params, setParams] = useSearchParams();
  const groups = useGroups(clientId);
  const requested = parseClientId(params.get(GROUP_PARAM));
  // A group id from another client (or a deleted group) selects nothing.
  const selected = groups.data?.results.find((group) => group.id === requested) ?? null;

  const select = (groupId: number | null) => {
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (groupId === null) next.delete(GROUP_PARAM);
      else next.set(GROUP_PARAM, String(groupId));
      return next;
    });
  };

  return (
    <Stack gap="md">
      <PageHeader title={TITLE} description={DESCRIPTION} />
      <Grid gap="md" align="flex-start">
        <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
          <GroupListPanel
            clientId={clientId}
            groups={groups}
            selectedId={selected?.id ?? null}
            onSelect={select}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>
          <GroupDetailPanel
            clientId={clientId}
            groups={groups.data?.results ?? []}
            group={selected}
            onSelect={select}
          />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
