import { asc, eq } from "drizzle-orm";
import { NO_PHONE, formatUsd, sumAmounts } from "@cyclebill/domain";
import { strToU8, zipSync } from "fflate";
import type { Database } from "../../db/database.js";
import { clients, customers } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { toCsv } from "../reports/report-csv.js";
import { renderTableReport } from "../reports/table-report.pdf.js";
import { ageCustomersNow } from "../summary/customer-ageing.queries.js";
import { customerToApi, type CustomerOutput } from "./customer-output.js";
import { businessToday } from "../../clock.js";

/** Every field of the customer record, in the API's order. */
export const CUSTOMER_CSV_COLUMNS: readonly (keyof CustomerOutput)[] = [
  "id",
  "client_id",
  "customer_no",
  "customer_name",
  "first_name",
  "last_name",
  "company_name",
  "phone1",
  "phone2",
  "phone3",
  "email",
  "address1",
  "address2",
  "address3",
  "city",
  "state",
  "zip",
  "property_address1",
  "property_address2",
  "property_address3",
  "property_city",
  "property_state",
  "property_zip",
  "pull_flag",
  "pull_explanation",
  "bi_pull_flag",
  "finance_flag",
  "autopay_flag",
  "tax_status",
  "message",
  "message_duration",
  "message_internal",
  "message_field",
  "bluepay_transaction_id",
  "bluepay_transaction_message",
  "delete_flag",
  "deleted",
  "archive_state",
  "open_date",
  "last_pay_date",
  "total_balance",
  "previous_balance",
  "mtd_charges",
  "mtd_payments",
  "mtd_cr_adj",
  "mtd_db_adj",
  "current_balance",
  "overdue_30_days",
  "overdue_60_days",
  "overdue_90_days",
  "overdue_over_90_days",
  "created_at",
];

function exportedPhone(phone: string): string {
  return phone === NO_PHONE ? "" : phone;
}

async function allCustomers(db: Database, tenant: TenantContext): Promise<CustomerOutput[]> {
  const rows = await db
    .select()
    .from(customers)
    .where(eq(customers.clientId, tenant.clientId))
    .orderBy(asc(customers.customerNo));
  return rows.map(customerToApi);
}

/** Customers.zip: one CSV with every field and balance of every customer of the client. */
export async function exportCustomersZip(
  db: Database,
  tenant: TenantContext,
): Promise<{ fileName: string; content: Buffer }> {
  const today = businessToday();
  // Aged now by the one rule the list, the Status tab and the Home card use (not the figures kept
  // from the last statement, which previous_balance still is): everything posted, so the columns
  // add up to total_balance.
  const [rows, ageing] = await Promise.all([allCustomers(db, tenant), ageCustomersNow(db, tenant.clientId)]);
  const aged = new Map(ageing.map((row) => [row.customerId, row]));
  const withAgeing = rows.map((row) => {
    const buckets = aged.get(row.id);
    return {
      ...row,
      // 0000000000 is the spec's "no phone": the screens hide it, and so does the export.
      phone1: exportedPhone(row.phone1),
      phone2: exportedPhone(row.phone2),
      phone3: exportedPhone(row.phone3),
      aged_as_of: today,
      current_balance: buckets?.current ?? row.current_balance,
      overdue_30_days: buckets?.days30 ?? row.overdue_30_days,
      overdue_60_days: buckets?.days60 ?? row.overdue_60_days,
      overdue_90_days: buckets?.days90 ?? row.overdue_90_days,
      overdue_over_90_days: buckets?.over90 ?? row.overdue_over_90_days,
    };
  });
  const csv = toCsv(withAgeing, [...CUSTOMER_CSV_COLUMNS, "aged_as_of"]);
  const zipped = zipSync({ "customers.csv": strToU8(csv) }, { level: 6 });
  return { fileName: "Customers.zip", content: Buffer.from(zipped) };
}

/**
 * Customer-Balance-Sheet.pdf: each customer's figures since their last statement (the kept
 * mtd_* columns, which a statement resets) and balance, with totals. Labelled "since last
 * statement", never "month to date": Home and the Status tab's "This month" is the calendar month.
 */
export async function renderBalanceSheet(
  db: Database,
  tenant: TenantContext,
): Promise<{ fileName: string; content: Buffer }> {
  const [client] = await db
    .select({ name: clients.clientName, clientNo: clients.clientNo })
    .from(clients)
    .where(eq(clients.id, tenant.clientId));
  const rows = (await allCustomers(db, tenant)).filter((customer) => !customer.deleted);
  const total = (pick: (customer: CustomerOutput) => string) => formatUsd(sumAmounts(rows.map(pick)));
  const today = businessToday();
  const content = await renderTableReport({
    title: "Customer Balance Sheet",
    subtitle: [
      `${client?.name ?? ""} (client ${client?.clientNo ?? ""})`,
      `Since last statement, as of ${today}: each customer's entries not yet on a statement; ${rows.length} customers`,
    ],
    landscape: true,
    columns: [
      { header: "Customer #", width: 62, align: "right" },
      { header: "Name", width: 160 },
      { header: "Previous", width: 75, align: "right" },
      { header: "Charges", width: 75, align: "right" },
      { header: "Payments", width: 75, align: "right" },
      { header: "Credits", width: 70, align: "right" },
      { header: "Debits", width: 70, align: "right" },
      { header: "Balance", width: 80, align: "right" },
      { header: "Mark", width: 45, align: "center" },
    ],
    rows: rows.map((customer) => [
      String(customer.customer_no),
      customer.customer_name,
      formatUsd(customer.previous_balance),
      formatUsd(customer.mtd_charges),
      formatUsd(customer.mtd_payments),
      formatUsd(customer.mtd_cr_adj),
      formatUsd(customer.mtd_db_adj),
      formatUsd(customer.total_balance),
      customer.delete_flag ?? "",
    ]),
    totals: [
      "",
      "Totals",
      total((customer) => customer.previous_balance),
      total((customer) => customer.mtd_charges),
      total((customer) => customer.mtd_payments),
      total((customer) => customer.mtd_cr_adj),
      total((customer) => customer.mtd_db_adj),
      total((customer) => customer.total_balance),
      "",
    ],
    emptyText: "This client has no customers yet.",
  });
  return { fileName: "Customer-Balance-Sheet.pdf", content };
}
