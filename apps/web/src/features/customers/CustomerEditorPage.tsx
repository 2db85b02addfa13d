import { HistoryTab } from "../audit/HistoryTab";
import { canReadAudit } from "../audit/audit-api";
import { useUser } from "../auth/user-context";
import { NAME_REQUIRED_ON_UPDATE_MESSAGE } from "@cyclebill/domain";
import { Alert, Anchor, Badge, Button, Paper, Skeleton, Stack, Tabs } from "@mantine/core";
import { useEffect, useState, type ReactNode } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { ApiError, describeApiError } from "../../api/api-client";
import { NoClientPage } from "../clients/ClientRequired";
import { useClientRecord } from "../clients/client-api";
import { CustomerPaymentsTab } from "../payments/CustomerPaymentsTab";
import { parseClientId, useClientContext } from "../../shared/client-context";
import { NotFoundPage } from "../shell/NotFoundPage";
import { PageHeader } from "../shell/PageHeader";
import { ArchiveDialogs, UnarchiveDialog } from "./archive";
import { useCustomer } from "./customer-api";
import { useSelectedCustomer } from "./selected-customer";
import type { CustomerRecord } from "@cyclebill/domain";
import { CustomerDetailsTab } from "./CustomerDetailsTab";
import { ArchiveNotice, CustomerEditorHeader } from "./CustomerEditorHeader";
import { CustomerGroupsTab } from "./CustomerGroupsTab";
import { CustomerSaveAlert } from "./CustomerSaveAlert";
import { StickyTabBar } from "../shell/StickyTabBar";
import { UnsavedChangesPrompt } from "../shell/UnsavedChangesPrompt";
import { CustomerStatusTab } from "./CustomerStatusTab";
import { CUSTOMER_TABS, CUSTOMER_TAB_LABELS, isTab, type CustomerTab } from "./customer-tabs";
import { RecurringChargesTab } from "./RecurringChargesTab";
import { StoredAmountsTab } from "./StoredAmountsTab";
import { useCustomerSave } from "./use-customer-save";

/** /customers/edit/{id}: the customer editor, opened from Manage Customers. */
export function CustomerEditorPage() {
  const params = useParams();
  const { clientId, withClient } = useClientContext();
  const customerId = parseClientId(params.customerId ?? null);
  if (customerId === null) return <NotFoundPage />;
  const back = (
    <Anchor component={Link} to={withClient("/customers/manage")} size="sm">
      ← Back to customers
    </Anchor>
  );
  if (clientId === null) {
    return (
      <NoClientPage
        header={
          <>
            {back}
            <PageHeader title="Edit Customer" />
          </>
        }
        what="customers"
      />
    );
  }
  return (
    <CustomerEditor
      key={`${String(clientId)}-${String(customerId)}`}
      clientId={clientId}
      customerId={customerId}
      back={back}
    />
  );
}

function CustomerEditor({
  clientId,
  customerId,
  back,
}: {
  clientId: number;
  customerId: number;
  back: ReactNode;
}) {
  const customer = useCustomer(clientId, customerId);
  const { setCustomer: select } = useSelectedCustomer(clientId);
  const loaded = customer.data;
  const [id, number, name] = [loaded?.id, loaded?.customer_no, loaded?.customer_name];
  // Opening a customer makes it the customer selected across screens (its name as last saved).
  useEffect(() => {
    if (id !== undefined && number !== undefined && name !== undefined)
      select({ id, customer_no: number, customer_name: name });
  }, [select, id, number, name]);
  if (customer.isPending) {
    return (
      <Stack gap="md">
        {back}
        <PageHeader title="Edit Customer" />
        <Skeleton h={40} />
        <Skeleton h={360} />
      </Stack>
    );
  }
  if (customer.isError) {
    const missing = customer.error instanceof ApiError && customer.error.status === 404;
    return (
      <Stack gap="md">
        {back}
        <PageHeader title="Edit Customer" />
        <Alert
          color="red"
          title={missing ? "No such customer" : "The customer could not be loaded"}
          maw={640}
        >
          {missing
            ? "This customer does not exist for the selected client."
            : describeApiError(customer.error)}
        </Alert>
      </Stack>
    );
  }
  return <CustomerEditorForm clientId={clientId} record={customer.data} back={back} />;
}

function CustomerEditorForm({
  clientId,
  record,
  back,
}: {
  clientId: number;
  record: CustomerRecord;
  back: ReactNode;
}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const tabParam = searchParams.get("tab");
  const tab: CustomerTab = isTab(tabParam) ? tabParam : "details";
  const { values, errors, set, status, setStatus, save, saving, dirty } = useCustomerSave(clientId, record);
  const [archiving, setArchiving] = useState(false);
  const [unarchiving, setUnarchiving] = useState(false);
  // Payment buttons and Autopay only for a client with a payment gateway key (spec §6).
  const hasPaymentKey = useClientRecord(clientId).data?.has_blue_pay_key === true;
  const hasStoredMethod = record.bluepay_transaction_id !== "";
  // Owners and admins read the trail; staff do not see the tab.
  const readsHistory = canReadAudit(useUser());

  const selectTab = (next: CustomerTab) => {
    const params = new URLSearchParams(searchParams);
    if (next === "details") params.delete("tab");
    else params.set("tab", next);
    setSearchParams(params, { replace: true });
  };

  return (
    <Stack gap="md">
      <UnsavedChangesPrompt when={dirty} what="changes to this customer's details" />
      {back}
      <CustomerEditorHeader clientId={clientId} record={record} hasPaymentKey={hasPaymentKey} />
      <ArchiveNotice
        record={record}
        onArchive={() => setArchiving(true)}
        onUnarchive={() => setUnarchiving(true)}
      />

      <Tabs value={tab} onChange={(value) => isTab(value) && selectTab(value)} keepMounted={false}>
        <StickyTabBar
          tabs={CUSTOMER_TABS.filter((value) => value !== "history" || readsHistory).map((value) => (
            <Tabs.Tab
              key={value}
              value={value}
              rightSection={
                value === "details" && Object.values(errors).some(Boolean) ? (
                  <Badge size="xs" color="red" circle aria-label="Fields to fix">
                    !
                  </Badge>
                ) : null
              }
            >
              {CUSTOMER_TAB_LABELS[value]}
            </Tabs.Tab>
          ))}
          action={
            tab === "details" ? (
              <Button onClick={save} loading={saving}>
                Save Customer
              </Button>
            ) : undefined
          }
        >
          {tab === "details" ? (
            <CustomerSaveAlert status={status} onClose={() => setStatus({ kind: "idle" })} />
          ) : null}
        </StickyTabBar>

        <Paper mt="md" bg="transparent">
          <Tabs.Panel value="details">
            <CustomerDetailsTab
              values={values}
              errors={errors}
              set={set}
              autopay={hasPaymentKey ? (hasStoredMethod ? "available" : "needs-method") : "hidden"}
              nameMissing={
                status.kind === "failed" &&
                status.messages.includes(NAME_REQUIRED_ON_UPDATE_MESSAGE) &&
                !values.first_name.trim() &&
                !values.last_name.trim() &&
                !values.company_name.trim()
              }
            />
          </Tabs.Panel>
          <Tabs.Panel value="stored">
            <StoredAmountsTab clientId={clientId} customerId={record.id} />
          </Tabs.Panel>
          <Tabs.Panel value="recurring">
            <RecurringChargesTab clientId={clientId} customerId={record.id} />
          </Tabs.Panel>
          <Tabs.Panel value="status">
            <CustomerStatusTab clientId={clientId} customerId={record.id} />
          </Tabs.Panel>
          <Tabs.Panel value="payments">
            <CustomerPaymentsTab clientId={clientId} customerId={record.id} hasPaymentKey={hasPaymentKey} />
          </Tabs.Panel>
          <Tabs.Panel value="history">
            <HistoryTab
              filters={{ client_id: clientId, customer_id: record.id }}
              canRead={readsHistory}
              showRecord
            />
          </Tabs.Panel>
          <Tabs.Panel value="groups">
            <CustomerGroupsTab
              clientId={clientId}
              customerId={record.id}
              customerName={record.customer_name}
            />
          </Tabs.Panel>
        </Paper>
      </Tabs>

      <ArchiveDialogs
        clientId={clientId}
        target={archiving ? record : null}
        onClose={() => setArchiving(false)}
      />
      <UnarchiveDialog
        clientId={clientId}
        target={unarchiving ? record : null}
        onClose={() => setUnarchiving(false)}
      />
    </Stack>
  );
}
