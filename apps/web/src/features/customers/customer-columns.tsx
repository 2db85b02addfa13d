import { Anchor, Stack, Text, Tooltip } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatAmount, formatIsoDate } from "../../lib/format";
import { ArchiveStateBadge } from "./archive";
import type { CustomerListRow } from "@cyclebill/domain";
import type { CustomerSortField } from "./customer-api";
import { displayPhone } from "./customer-form";

/** Spec: customer names are clipped at 30 characters in lists; the full name shows on hover. */
export const NAME_CLIP_LENGTH = 30;

export function clipName(name: string): string {
  return name.length > NAME_CLIP_LENGTH ? `${name.slice(0, NAME_CLIP_LENGTH).trimEnd()}…` : name;
}

export type ColumnContext = { editorPath: (row: CustomerListRow) => string };

export type CustomerColumn = {
  key: string;
  label: string;
  sort?: CustomerSortField;
  numeric?: boolean;
  /** Shown until the user changes the column choice. */
  defaultVisible: boolean;
  /** Always shown; not in the column chooser. */
  fixed?: boolean;
  width?: number;
  render: (row: CustomerListRow, context: ColumnContext) => ReactNode;
};

function money(value: string | null | undefined): ReactNode {
  return formatAmount(value);
}

function amountOn(amount: string | null, date: string | null): ReactNode {
  if (amount === null)
    return (
      <Text c="dimmed" span size="sm">
        —
      </Text>
    );
  return (
    <Stack gap={0} align="flex-end">
      <span>{formatAmount(amount)}</span>
      <Text size="xs" c="dimmed" span>
        {formatIsoDate(date)}
      </Text>
    </Stack>
  );
}

function plain(value: string | null | undefined): ReactNode {
  return value ? (
    value
  ) : (
    <Text c="dimmed" span size="sm">
      —
    </Text>
  );
}

/** The spec's list columns; a sensible few show by default, the rest through the column chooser. */
export const CUSTOMER_COLUMNS: readonly CustomerColumn[] = [
  {
    key: "customer_no",
    label: "Number",
    sort: "customer_no",
    numeric: false,
    defaultVisible: true,
    fixed: true,
    width: 96,
    render: (row) => <span style={{ fontVariantNumeric: "tabular-nums" }}>{row.customer_no}</span>,
  },
  {
    key: "customer_name",
    label: "Name",
    sort: "customer_name",
    defaultVisible: true,
    fixed: true,
    render: (row, context) => {
      const clipped = clipName(row.customer_name);
      return (
        <Stack gap={2} align="flex-start">
          <Tooltip label={row.customer_name} openDelay={200} disabled={clipped === row.customer_name}>
            <Anchor
              component={Link}
              to={context.editorPath(row)}
              fw={500}
              size="sm"
              // The link reads the whole name even when the text is clipped.
              aria-label={clipped === row.customer_name ? undefined : row.customer_name}
            >
              {clipped}
            </Anchor>
          </Tooltip>
          <ArchiveStateBadge state={row.archive_state} />
        </Stack>
      );
    },
  },
  {
    key: "first_name",
    label: "First name",
    sort: "first_name",
    defaultVisible: false,
    render: (row) => plain(row.first_name),
  },
  {
    key: "last_name",
    label: "Last name",
    sort: "last_name",
    defaultVisible: false,
    render: (row) => plain(row.last_name),
  },
  {
    key: "phone1",
    label: "Phone",
    defaultVisible: true,
    width: 140,
    render: (row) => <span style={{ whiteSpace: "nowrap" }}>{displayPhone(row.phone1)}</span>,
  },
  { key: "email", label: "Email", sort: "email", defaultVisible: false, render: (row) => plain(row.email) },
  { key: "city", label: "City", sort: "city", defaultVisible: false, render: (row) => plain(row.city) },
  {
    key: "open_date",
    label: "Opened",
    sort: "open_date",
    defaultVisible: false,
    render: (row) => formatIsoDate(row.open_date),
  },
  {
    key: "balance",
    label: "Balance",
    sort: "balance",
    numeric: true,
    defaultVisible: true,
    render: (row) => (
      <Text fw={600} size="sm" span>
        {formatAmount(row.balance)}
      </Text>
    ),
  },
  {
    key: "previous_balance",
    label: "Previous balance (last statement)",
    sort: "previous_balance",
    numeric: true,
    defaultVisible: false,
    render: (row) => money(row.previous_balance),
  },
  {
    key: "current_balance",
    label: "Current (aged as of today)",
    numeric: true,
    defaultVisible: false,
    render: (row) => money(row.current_balance),
  },
  {
    key: "current_charges",
    label: "Charges since last statement",
    sort: "mtd_charges",
    numeric: true,
    defaultVisible: true,
    render: (row) => money(row.current_charges),
  },
  {
    key: "current_payments_credits",
    label: "Payments & credits since last statement",
    numeric: true,
    width: 160,
    defaultVisible: true,
    render: (row) => money(row.current_payments_credits),
  },
  {
    key: "mtd_payments",
    label: "Payments since last statement",
    sort: "mtd_payments",
    numeric: true,
    defaultVisible: false,
    render: (row) => money(row.mtd_payments),
  },
  {
    key: "mtdCRAdjust",
    label: "Credit adj. since last statement",
    numeric: true,
    defaultVisible: false,
    render: (row) => money(row.mtdCRAdjust),
  },
  {
    key: "mtdDebitAdjust",
    label: "Debit adj. since last statement",
    numeric: true,
    defaultVisible: false,
    render: (row) => money(row.mtdDebitAdjust),
  },
  {
    key: "adjusted_total_balance",
    label: "Adjusted total",
    numeric: true,
    defaultVisible: false,
    render: (row) => money(row.adjusted_total_balance),
  },
  {
    key: "contract_balance",
    label: "Recurring total",
    numeric: true,
    defaultVisible: false,
    render: (row) => money(row.contract_balance),
  },
  {
    key: "lastCharge",
    label: "Last charge",
    numeric: true,
    defaultVisible: false,
    render: (row) => amountOn(row.lastChargeAmount, row.lastChargeDate),
  },
  {
    key: "lastPayment",
    label: "Last payment",
    numeric: true,
    defaultVisible: true,
    render: (row) => amountOn(row.lastPaymentAmount, row.lastPaymentDate),
  },
  {
    key: "lastCredit",
    label: "Last credit",
    numeric: true,
    defaultVisible: false,
    render: (row) => amountOn(row.lastCreditAmount, row.lastCreditDate),
  },
  {
    key: "last_pay_date",
    label: "Last pay date",
    sort: "last_pay_date",
    defaultVisible: false,
    render: (row) => (row.last_pay_date ? formatIsoDate(row.last_pay_date) : plain(null)),
  },
  {
    key: "bluepay_transaction_message",
    label: "Card message",
    defaultVisible: false,
    render: (row) => plain(row.bluepay_transaction_message),
  },
];

export const DEFAULT_COLUMN_KEYS = CUSTOMER_COLUMNS.filter((column) => column.defaultVisible).map(
  (column) => column.key,
);
