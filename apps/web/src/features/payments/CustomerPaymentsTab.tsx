import type { PaymentAttempt, PaymentLink } from "@cyclebill/domain";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  CopyButton,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { GatewayReturns } from "../gateway-events/GatewayReturns";
import { describeApiError } from "../../api/api-client";
import { formatAmount } from "../../lib/format";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { EmptyRow, LoadingRows } from "../shell/LoadingRows";
import { TablePager } from "../shell/TablePager";
import { storedMethodLabel } from "./payment-form";
import {
  ATTEMPTS_PAGE_SIZE,
  issuePaymentLink,
  useAttemptsNeedingAttention,
  useCustomerPaymentInfo,
  useDeleteStoredMethod,
  usePaymentAttempts,
  useSettlePendingAttempts,
} from "./payments-api";

/** The staff payment form's address (spec: PaymentForm with customer_id, client_id, recordPayment). */
export function paymentFormPath(clientId: number, customerId: number, recordPayment: boolean): string {
  return `/payments?${new URLSearchParams({
    customer_id: String(customerId),
    client_id: String(clientId),
    recordPayment: String(recordPayment),
  }).toString()}`;
}

/** The customer editor's Payments tab: the stored method (remove with confirmation) and every attempt. */
export function CustomerPaymentsTab(props: { clientId: number; customerId: number; hasPaymentKey: boolean }) {
  const { clientId, customerId, hasPaymentKey } = props;
  return (
    <Stack gap="lg">
      <StoredMethodPanel clientId={clientId} customerId={customerId} hasPaymentKey={hasPaymentKey} />
      <AttemptsTable clientId={clientId} customerId={customerId} />
      <GatewayReturns clientId={clientId} customerId={customerId} />
    </Stack>
  );
}

function StoredMethodPanel(props: { clientId: number; customerId: number; hasPaymentKey: boolean }) {
  const { clientId, customerId, hasPaymentKey } = props;
  const info = useCustomerPaymentInfo(clientId, customerId);
  const remove = useDeleteStoredMethod(clientId, customerId);
  const [confirming, setConfirming] = useState(false);
  const method = info.data?.stored_method ?? null;
  const link = useMutation<PaymentLink, Error>({ mutationFn: () => issuePaymentLink(clientId, customerId) });
  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={2} size="h5">
            Stored payment method
          </Title>
          {info.isPending ? <Skeleton h={16} w={240} /> : null}
          {info.isError ? (
            <Text size="sm" c="red">
              {describeApiError(info.error)}
            </Text>
          ) : null}
          {info.isSuccess ? (
            <Text size="sm" data-testid="stored-method">
              {method ? storedMethodLabel(method) : "None on file."}
              {method && info.data.autopay_flag ? (
                <Badge ml="xs" size="sm" variant="light">
                  Autopay on
                </Badge>
              ) : null}
            </Text>
          ) : null}
        </Stack>
        <Group gap="xs">
          {hasPaymentKey ? (
            <Button
              component={Link}
              to={paymentFormPath(clientId, customerId, true)}
              variant="default"
              size="xs"
            >
              {method ? "Replace" : "Store card/ACH"}
            </Button>
          ) : null}
          {hasPaymentKey ? (
            <Button variant="default" size="xs" loading={link.isPending} onClick={() => link.mutate()}>
              Link for the customer
            </Button>
          ) : null}
          {method ? (
            <Button color="red" variant="light" size="xs" onClick={() => setConfirming(true)}>
              Remove
            </Button>
          ) : null}
        </Group>
      </Group>
      {link.isSuccess ? (
        <Alert color="blue" mt="sm" title="Send this link to the customer" data-testid="payment-link">
          <Text size="sm">
            The customer can store a card or bank account and choose autopay; nothing is charged. It works
            once, until {new Date(link.data.expires_at).toLocaleDateString("en-US")}.
          </Text>
          <Group gap="xs" mt={6} wrap="nowrap">
            <Text size="xs" ff="monospace" style={{ wordBreak: "break-all" }}>
              {link.data.url}
            </Text>
            <CopyButton value={link.data.url}>
              {({ copied, copy }) => (
                <Button size="compact-xs" variant="light" onClick={copy}>
                  {copied ? "Copied" : "Copy"}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Alert>
      ) : null}
      {link.isError ? (
        <Alert color="red" mt="sm" title="No link was made">
          {describeApiError(link.error)}
        </Alert>
      ) : null}
      {remove.isError ? (
        <Alert color="red" mt="sm" title="The method was not removed">
          {describeApiError(remove.error)}
        </Alert>
      ) : null}
      <ConfirmDeleteDialog
        opened={confirming}
        title="Remove the stored payment method?"
        confirmLabel="Remove"
        loading={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => remove.mutate(undefined, { onSettled: () => setConfirming(false) })}
      >
        {method ? storedMethodLabel(method) : "The stored method"} will be removed from this customer. Autopay
        stops, and the customer no longer appears in Process CC Payments.
      </ConfirmDeleteDialog>
    </Paper>
  );
}

const STATUS_COLORS: Record<PaymentAttempt["status"], string> = {
  pending: "gray",
  unknown: "orange",
  approved: "teal",
  declined: "red",
  error: "red",
  duplicate: "orange",
  skipped: "gray",
};
const KIND_LABELS: Record<PaymentAttempt["kind"], string> = {
  sale: "Payment",
  auth: "Store method",
  refund: "Refund",
  void: "Void",
};
const SOURCE_LABELS: Record<PaymentAttempt["source"], string> = {
  page: "Payment page",
  staff: "Staff",
  bulk: "Process CC",
  autopay: "Autopay",
};

function AttemptsTable({ clientId, customerId }: { clientId: number; customerId: number }) {
  const [page, setPage] = useState(1);
  const attempts = usePaymentAttempts(clientId, customerId, page);
  const settle = useSettlePendingAttempts(clientId, customerId);
  const rows = attempts.data?.results ?? [];
  const declines = useAttemptsNeedingAttention(clientId, customerId);
  const flagged = declines.data?.results[0] ?? null;
  const anyPending = rows.some((attempt) => attempt.status === "pending" || attempt.status === "unknown");
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={2} size="h5">
          Card and ACH attempts
        </Title>
        {anyPending ? (
          <Button size="xs" variant="default" loading={settle.isPending} onClick={() => settle.mutate()}>
            Ask the gateway about pending attempts
          </Button>
        ) : null}
      </Group>
      {flagged ? (
        <Alert color="red" title="Autopay was declined" data-testid="autopay-declined">
          The automatic payment of {formatAmount(flagged.amount)} on {formatTimestamp(flagged.created)} was
          declined ({flagged.message || "no reason given"}). The customer was emailed; no payment has been
          approved since. Ask for another card or bank account.
        </Alert>
      ) : null}
      {anyPending ? (
        <Text size="sm" c="dimmed">
          A pending attempt&apos;s answer was lost on the way back. Asking the gateway settles it by its order
          number; it never charges again.
        </Text>
      ) : null}
      {settle.isError ? (
        <Alert color="red" title="The gateway could not be asked">
          {describeApiError(settle.error)}
        </Alert>
      ) : null}
      {attempts.isError ? (
        <Alert color="red" title="The attempts could not be loaded">
          {describeApiError(attempts.error)}
        </Alert>
      ) : null}
      <Table.ScrollContainer minWidth={1100}>
        <Table striped aria-label="Payment attempts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>From</Table.Th>
              <Table.Th>Method</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>Message</Table.Th>
              <Table.Th>Transaction</Table.Th>
              <Table.Th>Receipt</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {attempts.isPending ? <LoadingRows columns={9} rows={3} /> : null}
            {rows.map((attempt) => (
              <Table.Tr key={attempt.id} data-status={attempt.status}>
                <Table.Td style={{ whiteSpace: "nowrap" }}>{formatTimestamp(attempt.created)}</Table.Td>
                <Table.Td>{KIND_LABELS[attempt.kind]}</Table.Td>
                <Table.Td>{SOURCE_LABELS[attempt.source]}</Table.Td>
                <Table.Td>
                  {attempt.method === "ach" ? "ACH" : attempt.card_type || "Card"}{" "}
                  {attempt.mask ? `…${attempt.mask.replace(/[^0-9]/g, "").slice(-4)}` : ""}
                </Table.Td>
                <Table.Td ta="right">{formatAmount(attempt.amount)}</Table.Td>
                <Table.Td>
                  <Badge
                    color={STATUS_COLORS[attempt.status]}
                    variant="light"
                    style={{ minWidth: "max-content" }}
                  >
                    {attempt.status}
                  </Badge>
                  {attempt.needs_checking ? (
                    <Badge ml="xs" color="red" variant="light" data-testid="needs-checking">
                      needs checking
                    </Badge>
                  ) : null}
                </Table.Td>
                <Table.Td>{attempt.message}</Table.Td>
                <Table.Td>
                  {attempt.transaction_id !== null ? (
                    <Anchor
                      component={Link}
                      size="sm"
                      to={`/transactions/search?client_id=${String(clientId)}&customer_id=${String(customerId)}&transaction_code_type=payment`}
                    >
                      Posted
                    </Anchor>
                  ) : (
                    "—"
                  )}
                </Table.Td>
                <Table.Td>
                  <ReceiptCell receipt={attempt.receipt} />
                </Table.Td>
              </Table.Tr>
            ))}
            {attempts.isSuccess && rows.length === 0 ? (
              <EmptyRow columns={9} look="plain">
                No card or ACH payments have been attempted for this customer.
              </EmptyRow>
            ) : null}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {(attempts.data?.count ?? 0) > ATTEMPTS_PAGE_SIZE ? (
        <TablePager
          total={attempts.data?.count ?? 0}
          page={page}
          pageSize={ATTEMPTS_PAGE_SIZE}
          onPageChange={setPage}
          noun={{ one: "attempt" }}
        />
      ) : null}
    </Stack>
  );
}

const RECEIPT_KIND_LABELS: Record<NonNullable<PaymentAttempt["receipt"]>["kind"], string> = {
  receipt: "Receipt",
  declined: "Notice",
  refund: "Refund notice",
};

const RECEIPT_LABELS: Record<NonNullable<PaymentAttempt["receipt"]>["status"], string> = {
  queued: "Queued",
  sending: "Sending",
  sent: "Sent",
  failed: "Not sent yet",
};

/** The receipt (or declined-autopay notice) this attempt emailed, and to whom. */
function ReceiptCell({ receipt }: { receipt: PaymentAttempt["receipt"] }) {
  if (!receipt) return <>—</>;
  return (
    <Text size="sm" title={receipt.recipient}>
      {RECEIPT_KIND_LABELS[receipt.kind]} {RECEIPT_LABELS[receipt.status].toLowerCase()}
      <Text span size="xs" c="dimmed" display="block">
        {receipt.recipient}
      </Text>
    </Text>
  );
}

/** "2026-11-25T19:04:05Z" in the browser's time, to the minute. */
function formatTimestamp(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });
}
