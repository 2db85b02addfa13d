import { BatchPage } from "./BatchPage";
import { AddBatchForm } from "./AddBatchForm";
import { useActiveCustomers, type BatchMember } from "./group-batch-api";

const TITLE = "Add Transactions for All Customers";
const DESCRIPTION =
  "One transaction for each active customer of the client. Omit customers or change their amounts before adding.";

export function AddForAllCustomersPage() {
  return (
    <BatchPage
      title={TITLE}
      description={DESCRIPTION}
      other={{ path: "/transactions/addByRoute", label: "Add by group" }}
      what="customers"
    >
      {(clientId) => <AddForAll key={clientId} clientId={clientId} />}
    </BatchPage>
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
