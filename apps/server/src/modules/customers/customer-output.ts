import { archiveState, type ArchiveState } from "@cyclebill/domain";
import type { customers } from "../../db/tables.js";

export type CustomerRow = typeof customers.$inferSelect;

export type CustomerOutput = {
  id: number;
  client: number;
  client_id: number;
  customer_no: number;
  customer_name: string;
  first_name: string;
  last_name: string;
  company_name: string;
  phone1: string;
  phone2: string;
  phone3: string;
  email: string;
  address1: string;
  address2: string;
  address3: string;
  city: string;
  state: string;
  zip: string;
  property_address1: string;
  property_address2: string;
  property_address3: string;
  property_city: string;
  property_state: string;
  property_zip: string;
  pull_flag: string;
  pull_explanation: string;
  bi_pull_flag: string;
  finance_flag: string;
  autopay_flag: boolean;
  tax_status: string;
  message: string;
  message_duration: number;
  message_internal: string;
  message_field: string;
  bluepay_transaction_id: string;
  bluepay_transaction_message: string;
  delete_flag: string | null;
  deleted: boolean;
  archive_state: ArchiveState;
  open_date: string;
  last_pay_date: string | null;
  total_balance: string;
  balance: string;
  previous_balance: string;
  mtd_charges: string;
  mtd_payments: string;
  mtd_cr_adj: string;
  mtd_db_adj: string;
  overdue_30_days: string;
  overdue_60_days: string;
  overdue_90_days: string;
  overdue_over_90_days: string;
  current_balance: string;
  created_at: string;
};

/** The customer record as the API names it (the spec's names). */
export function customerToApi(row: CustomerRow): CustomerOutput {
  return {
    id: row.id,
    client: row.clientId,
    client_id: row.clientId,
    customer_no: row.customerNo,
    customer_name: row.customerName,
    first_name: row.firstName,
    last_name: row.lastName,
    company_name: row.companyName,
    phone1: row.phone1,
    phone2: row.phone2,
    phone3: row.phone3,
    email: row.email,
    address1: row.address1,
    address2: row.address2,
    address3: row.address3,
    city: row.city,
    state: row.state,
    zip: row.zip,
    property_address1: row.propertyAddress1,
    property_address2: row.propertyAddress2,
    property_address3: row.propertyAddress3,
    property_city: row.propertyCity,
    property_state: row.propertyState,
    property_zip: row.propertyZip,
    pull_flag: row.pullFlag,
    pull_explanation: row.pullExplanation,
    bi_pull_flag: row.biPullFlag,
    finance_flag: row.financeFlag,
    autopay_flag: row.autopayFlag,
    tax_status: row.taxStatus,
    message: row.message,
    message_duration: row.messageDuration,
    message_internal: row.messageInternal,
    message_field: row.messageField,
    bluepay_transaction_id: row.bluepayTransactionId,
    bluepay_transaction_message: row.bluepayTransactionMessage,
    delete_flag: row.deleteFlag,
    deleted: row.deleted,
    archive_state: archiveState(row),
    open_date: row.openDate,
    last_pay_date: row.lastPayDate,
    total_balance: row.totalBalance,
    balance: row.totalBalance,
    previous_balance: row.previousBalance,
    mtd_charges: row.mtdCharges,
    mtd_payments: row.mtdPayments,
    mtd_cr_adj: row.mtdCrAdj,
    mtd_db_adj: row.mtdDbAdj,
    overdue_30_days: row.overdue30Days,
    overdue_60_days: row.overdue60Days,
    overdue_90_days: row.overdue90Days,
    overdue_over_90_days: row.overdueOver90Days,
    current_balance: row.currentBalance,
    created_at: row.createdAt.toISOString(),
  };
}
