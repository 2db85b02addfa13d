import { Button, Stack } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { NoClientPage } from "../clients/ClientRequired";
import { useClientContext } from "../../shared/client-context";
import { PageHeader } from "../shell/PageHeader";

/**
 * The frame of Add Transactions by Group and for All Customers: the header with a link to the other,
 * and the screen of the chosen client (remounted when the client changes).
 */
export function BatchPage(props: {
  title: string;
  description: string;
  other: { path: string; label: string };
  /** What the screen lists, for the no-client notice ("groups"). */
  what: string;
  children: (clientId: number) => ReactNode;
}) {
  const { clientId, withClient } = useClientContext();
  const header = (
    <PageHeader
      title={props.title}
      description={props.description}
      actions={
        <Button variant="default" component={Link} to={withClient(props.other.path)}>
          {props.other.label}
        </Button>
      }
    />
  );
  if (clientId === null) return <NoClientPage header={header} what={props.what} />;
  return (
    <Stack gap="md">
      {header}
      {props.children(clientId)}
    </Stack>
  );
}
