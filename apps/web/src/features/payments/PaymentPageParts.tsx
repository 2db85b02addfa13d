import type { PaymentResult, PublicPaymentInfo } from "@cyclebill/domain";
import { Alert, Group, Stack, Text } from "@mantine/core";
import { formatAmount, formatIsoDate } from "../../lib/format";
import { noCardPaymentsText } from "./payment-form";

// The pay page's read-only parts: what the statement asks, notes about it, and the receipt shown
// after an approval.

/** What an approval showed, carried to the page the window falls back to. */
export type Receipt = { result: PaymentResult; recordPayment: boolean };

export function ReceiptAlert({ receipt }: { receipt: Receipt }) {
  const { result } = receipt;
  return (
    <Alert color="teal" title={receipt.recordPayment ? "Payment method stored" : "Payment received"}>
      <Text size="sm">
        {receipt.recordPayment
          ? result.message_response
          : `${formatAmount(result.amount_response)} from ${[result.name1, result.name2].filter(Boolean).join(" ")}: ${result.message_response}.`}
      </Text>
      {receipt.recordPayment ? null : (
        <Text size="sm">Balance now {formatAmount(result.account_balance)}. Thank you.</Text>
      )}
    </Alert>
  );
}

/** Where the form would be, for a client without a gateway key: said plainly, before anything is typed. */
export function NoCardPayments({ clientName }: { clientName: string }) {
  const { title, message } = noCardPaymentsText(clientName);
  return (
    <Alert color="gray" variant="light" title={title} role="status">
      {message}
    </Alert>
  );
}

/** An older statement's link: its balance went forward into the latest statement, which is paid here. */
export function ReplacedStatementNote({
  replaced,
  latestNum,
}: {
  replaced: { statement_num: number; statement_date: string };
  latestNum: number;
}) {
  return (
    <Alert color="blue" title="This link is for an earlier statement" role="status">
      Statement No. {replaced.statement_num} of {formatIsoDate(replaced.statement_date)} has been followed by
      statement No. {latestNum}, which carries its balance forward. What is due now is shown below.
    </Alert>
  );
}

export function PaymentSummary({ info }: { info: PublicPaymentInfo }) {
  const rows: [string, string][] = [
    ["Account", `${info.customer_no} · ${info.names || info.company}`],
    ...(info.statement
      ? ([
          [
            info.statement.replaced_statement ? "Latest statement" : "Statement",
            `No. ${info.statement.statement_num} of ${formatIsoDate(info.statement.statement_date)}`,
          ],
          // An autopay statement asks for nothing: it says what is charged, to which method, when.
          info.statement.autopay_notice
            ? ["Autopay", info.statement.autopay_notice]
            : ["Amount due", `${formatAmount(info.statement.amount_due)} · ${info.statement.due_label}`],
        ] as [string, string][])
      : []),
    ["Account balance", formatAmount(info.accountbalance)],
  ];
  return (
    <Stack gap={4} p="sm" bg="gray.0" style={{ borderRadius: "var(--mantine-radius-sm)" }}>
      {rows.map(([label, value]) => (
        <Group key={label} justify="space-between" gap="md" wrap="nowrap">
          {/* The label keeps to one line ("Amount due" broke in two on a phone); the value wraps. */}
          <Text size="sm" c="dimmed" style={{ whiteSpace: "nowrap" }}>
            {label}
          </Text>
          <Text size="sm" fw={500} ta="right">
            {value}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
