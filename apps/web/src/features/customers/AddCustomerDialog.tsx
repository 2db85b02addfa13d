import { Modal, Paper, Stack } from "@mantine/core";
import { useNavigate } from "react-router";
import { NoClientNotice } from "../clients/ClientRequired";
import { useClientContext } from "../../shared/client-context";
import { PageHeader } from "../shell/PageHeader";
import { AddCustomerForm } from "./AddCustomerForm";
import type { CustomerRecord } from "@cyclebill/domain";

/** The Add Customer dialog of Manage Customers. */
export function AddCustomerDialog({
  clientId,
  opened,
  onClose,
  onSaved,
}: {
  clientId: number;
  opened: boolean;
  onClose: () => void;
  onSaved?: (customer: CustomerRecord) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Add Customer"
      size={1040}
      centered={false}
      yOffset="4vh"
      closeOnClickOutside={false}
      styles={{
        title: { fontWeight: 700, fontSize: "var(--mantine-font-size-lg)" },
        body: { paddingBottom: 0 },
      }}
    >
      <AddCustomerForm
        clientId={clientId}
        stickyFooter
        onCancel={onClose}
        onSaved={(customer, andNew) => {
          onSaved?.(customer);
          if (!andNew) onClose();
        }}
      />
    </Modal>
  );
}

/** /addCustomer: the same form as a page; Save returns to the customer list. */
export function AddCustomerPage() {
  const { clientId, withClient } = useClientContext();
  const navigate = useNavigate();
  return (
    <Stack gap="md" maw={1100}>
      <PageHeader title="Add Customer" description="A new customer of the selected client." />
      {clientId === null ? (
        <NoClientNotice what="customers" />
      ) : (
        <Paper withBorder p="md" radius="sm" bg="gray.0">
          <AddCustomerForm
            clientId={clientId}
            onCancel={() => void navigate(withClient("/customers/manage"))}
            onSaved={(_customer, andNew) => {
              if (!andNew) void navigate(withClient("/customers/manage"));
            }}
          />
        </Paper>
      )}
    </Stack>
  );
}
