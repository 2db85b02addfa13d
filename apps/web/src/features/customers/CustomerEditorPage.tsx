import { NAME_REQUIRED_ON_UPDATE_MESSAGE } from "@cyclebill/domain";
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  List,
  Paper,
  Skeleton,
  Stack,
  Tabs,
  Text,
} from "@mantine/core";
import { useEffect, useState, type ReactNode } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { ApiError, describeApiError } from "../../api/api-client";
import { formatAmount } from "../../lib/format";
import { NoClientNotice } from "../clients/ClientRequired";
import { useClientRecord } from "../clients/client-api";
import { CustomerPaymentsTab, paymentFormPath } from "../payments/CustomerPaymentsTab";
import { parseClientId, useClientContext } from "../../shared/client-context";
import { NotFoundPage } from "../shell/NotFoundPage";
import { PageHeader } from "../shell/PageHeader";
import { ARCHIVE_STATE_LABELS, ArchiveDialogs, ArchiveStateBadge, UnarchiveDialog } from "./archive";
import { useCustomer, useUpdateCustomer } from "./customer-api";
import { useSelectedCustomer } from "./selected-customer";
import type { CustomerRecord } from "@cyclebill/domain";
import { CustomerDetailsTab } from "./CustomerDetailsTab";
import type { SetCustomerField } from "./CustomerFields";
import {
  serverErrors,
  validateCustomer,
  valuesFromRecord,
  type CustomerFieldErrors,
  type CustomerFormValues,
} from "./customer-form";
import { CustomerGroupsTab } from "./CustomerGroupsTab";
import { customerLinks } from "./customer-links";
import { CustomerStatusTab } from "./CustomerStatusTab";
import { RecurringChargesTab } from "./RecurringChargesTab";
import { StoredAmountsTab } from "./StoredAmountsTab";

export const CUSTOMER_TABS = ["details", "stored", "recurring", "status", "groups", "payments"] as const;
export type CustomerTab = (typeof CUSTOMER_TABS)[number];
export const CUSTOMER_TAB_LABELS: Record<CustomerTab, string> = {
  details: "Customer Details",
  stored: "Stored Amounts",
  recurring: "Recurring Charges",
  status: "Status",
  groups: "Groups",
  payments: "Payments",
};
export const CUSTOMER_SAVED_MESSAGE = "Customer saved.";
/** How long the saved alert stays (the spec's saved alerts show for 3 seconds). */
const SAVED_ALERT_MS = 3_000;

function isTab(value: string | null): value is CustomerTab {
  return (CUSTOMER_TABS as readonly string[]).includes(value ?? "");
}

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
      <Stack gap="md">
        {back}
        <PageHeader title="Edit Customer" />
        <NoClientNotice what="customers" />
      </Stack>
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

type SaveStatus = { kind: "idle" } | { kind: "saved" } | { kind: "failed"; messages: string[] };

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
  const [values, setValues] = useState<CustomerFormValues>(() => valuesFromRecord(record));
  const [errors, setErrors] = useState<CustomerFieldErrors>({});
  const [status, setStatus] = useState<SaveStatus>({ kind: "idle" });
  const [archiving, setArchiving] = useState(false);
  const [unarchiving, setUnarchiving] = useState(false);
  const update = useUpdateCustomer(clientId, record.id);
  const links = customerLinks(clientId, record.id);
  // Payment buttons and Autopay only for a client with a payment gateway key (spec §6).
  const hasPaymentKey = useClientRecord(clientId).data?.has_blue_pay_key === true;
  const hasStoredMethod = record.bluepay_transaction_id !== "";
  // Removing the stored method (Payments tab) ends autopay on the server: the form follows, so a
  // later save does not send a switch the server would refuse.
  const [serverAutopay, setServerAutopay] = useState(record.autopay_flag);
  if (serverAutopay !== record.autopay_flag) {
    setServerAutopay(record.autopay_flag);
    if (!record.autopay_flag) setValues((current) => ({ ...current, autopay_flag: false }));
  }

  useEffect(() => {
    if (status.kind !== "saved") return;
    const timer = window.setTimeout(() => setStatus({ kind: "idle" }), SAVED_ALERT_MS);
    return () => window.clearTimeout(timer);
  }, [status]);

  const set: SetCustomerField = (field, value) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const selectTab = (next: CustomerTab) => {
    const params = new URLSearchParams(searchParams);
    if (next === "details") params.delete("tab");
    else params.set("tab", next);
    setSearchParams(params, { replace: true });
  };

  const save = () => {
    const result = validateCustomer(values, "edit");
    if (!result.ok) {
      setErrors(result.fieldErrors);
      setStatus({
        kind: "failed",
        messages: result.formErrors.length > 0 ? result.formErrors : ["Please correct the marked fields."],
      });
      return;
    }
    setStatus({ kind: "idle" });
    update.mutate(result.data, {
      onSuccess: (saved) => {
        setValues(valuesFromRecord(saved));
        setErrors({});
        setStatus({ kind: "saved" });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 400) {
          const fromServer = serverErrors(error.body);
          setErrors(fromServer.fieldErrors);
          setStatus({
            kind: "failed",
            messages:
              fromServer.formErrors.length > 0
                ? fromServer.formErrors
                : ["Please correct the marked fields."],
          });
        } else {
          setStatus({ kind: "failed", messages: [describeApiError(error)] });
        }
      },
    });
  };

  return (
    <Stack gap="md">
      {back}
      <PageHeader
        title="Edit Customer"
        description={
          <Group gap="xs" component="span">
            <span>
              {record.customer_no} · {record.customer_name}
            </span>
            <span aria-hidden>·</span>
            <span>Balance {formatAmount(record.balance)}</span>
          </Group>
        }
        actions={
          <>
            <Button component={Link} to={links.transactions} variant="default" size="sm">
              Transactions
            </Button>
            <Button component={Link} to={links.payments} variant="default" size="sm">
              Payments
            </Button>
            <Button component={Link} to={links.invoices} variant="default" size="sm">
              Invoices &amp; Statements
            </Button>
            {hasPaymentKey ? (
              <>
                <Button component={Link} to={paymentFormPath(clientId, record.id, false)} size="sm">
                  Take payment
                </Button>
                <Button
                  component={Link}
                  to={paymentFormPath(clientId, record.id, true)}
                  variant="light"
                  size="sm"
                >
                  Store card/ACH
                </Button>
              </>
            ) : null}
          </>
        }
      />

      {record.archive_state !== "active" ? (
        <Alert
          color={record.deleted ? "gray" : "yellow"}
          variant="light"
          title={
            <Group gap="xs">
              <span>{record.deleted ? "This customer is archived" : "Marked for archiving"}</span>
              <ArchiveStateBadge state={record.archive_state} />
            </Group>
          }
        >
          <Group justify="space-between" gap="sm">
            <Text size="sm">
              {record.deleted
                ? "It gets no bills and is hidden from the customer list. Unarchiving does not bring back its transaction history."
                : `${ARCHIVE_STATE_LABELS[record.archive_state]}: it takes payments and adjustments but no new charges, and is archived once its balance is zero.`}
            </Text>
            <Button
              size="xs"
              variant="default"
              onClick={() => (record.deleted ? setUnarchiving(true) : setArchiving(true))}
            >
              {record.deleted ? "Unarchive…" : "Change archive flag…"}
            </Button>
          </Group>
        </Alert>
      ) : null}

      <Tabs value={tab} onChange={(value) => isTab(value) && selectTab(value)} keepMounted={false}>
        <Box
          pos="sticky"
          top="var(--app-shell-header-offset, 0px)"
          bg="var(--mantine-color-gray-0)"
          pt="xs"
          style={{ zIndex: 5 }}
        >
          <Group justify="space-between" align="flex-end" wrap="nowrap" gap="md">
            <Tabs.List style={{ flex: 1 }}>
              {CUSTOMER_TABS.map((value) => (
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
            </Tabs.List>
            {tab === "details" ? (
              <Box pb={6}>
                <Button onClick={save} loading={update.isPending}>
                  Save Customer
                </Button>
              </Box>
            ) : null}
          </Group>
          {tab === "details" ? (
            <SaveAlert status={status} onClose={() => setStatus({ kind: "idle" })} />
          ) : null}
        </Box>

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

function SaveAlert({ status, onClose }: { status: SaveStatus; onClose: () => void }) {
  if (status.kind === "saved") {
    return (
      <Alert color="teal" mt="sm" title={CUSTOMER_SAVED_MESSAGE} withCloseButton onClose={onClose}>
        {null}
      </Alert>
    );
  }
  if (status.kind !== "failed") return null;
  return (
    <Alert
      color="red"
      mt="sm"
      title="The customer was not saved"
      withCloseButton
      onClose={onClose}
      role="alert"
    >
      <List size="sm">
        {status.messages.map((message) => (
          <List.Item key={message}>{message}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
