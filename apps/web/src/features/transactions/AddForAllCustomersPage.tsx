import { Button, Stack } from "@mantine/core";
import { Link } from "react-router";
import { NoClientNotice } from "../clients/ClientRequired";
import { useClientContext } from "../../shared/client-context";
import { PageHeader } from "../shell/PageHeader";
import { AddBatchForm } from "./AddBatchForm";
import { useActiveCustomers, type BatchMember } from "./group-batch-api";

const TITLE = "Add Transactions for All Customers";
const DESCRIPTION =
  "One transaction for each active customer of the client. Omit customers or change their amounts before adding.";

export function AddForAllCustomersPage() {
  const { clientId, withClient } = useClientContext();
  const header = (
    <PageHeader
      title={TITLE}
      description={DESCRIPTION}
      actions={
        <Button variant="default" component={Link} to={withClient("/transactions/addByRoute")}>
          Add by group
        </Button>
      }
    />
  );
  if (clientId === null) {
    return (
      <Stack gap="md">
        {header}
        <NoClientNotice what="customers" />
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      {header}
      <AddForAll key={clientId} clientId={clientId} />
    </Stack>
  );
}

function AddForAll({ clientId }: { clientId: number }) {
  const customers = useActiveCustomers(clientId);
  const members: BatchMember[] = (customers.data?.results ?? []).map((customer) => ({
    id: customer.id,
    customer_no: customer.customer_no,
    customer_name: customer.customer_name,
    position: null,
    delete_flag: customer.delete_flag,
    archived: customer.deleted,
  }));
  return (
    <AddBatchForm
      clientId={clientId}
      transactionType="bulk"
      group={null}
      members={members}
      membersLoading={customers.isPending}
      listKey="all"
      emptyText="This client has no active customers."
    />
  );
}
