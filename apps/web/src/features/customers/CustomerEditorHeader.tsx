import type { CustomerRecord } from "@cyclebill/domain";
import { Alert, Button, Group, Text } from "@mantine/core";
import { Link } from "react-router";
import { formatAmount } from "../../lib/format";
import { paymentFormPath } from "../payments/CustomerPaymentsTab";
import { PageHeader } from "../shell/PageHeader";
import { ARCHIVE_STATE_LABELS, ArchiveStateBadge } from "./archive";
import { customerLinks } from "./customer-links";

/** The editor's title: the customer, its balance, and the buttons to its other screens. */
export function CustomerEditorHeader({
  clientId,
  record,
  hasPaymentKey,
}: {
  clientId: number;
  record: CustomerRecord;
  hasPaymentKey: boolean;
}) {
  const links = customerLinks(clientId, record.id);
  return (
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
  );
}

/** A customer marked for archiving or archived: what that means, and the button to change it. */
export function ArchiveNotice({
  record,
  onArchive,
  onUnarchive,
}: {
  record: CustomerRecord;
  onArchive: () => void;
  onUnarchive: () => void;
}) {
  if (record.archive_state === "active") return null;
  // Only what the record's actions allow: an archived customer with a balance cannot be unarchived.
  const action = record.deleted
    ? record.actions.includes("unarchive")
      ? { label: "Unarchive…", run: onUnarchive }
      : null
    : record.actions.includes("mark_for_archive")
      ? { label: "Change archive flag…", run: onArchive }
      : null;
  return (
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
        {action ? (
          <Button size="xs" variant="default" onClick={action.run}>
            {action.label}
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}
