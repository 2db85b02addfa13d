import { archiveState, customerActions, toDeleteFlag, type CustomerRecord } from "@cyclebill/domain";
import type { customers } from "../../db/tables.js";

export type CustomerRow = typeof customers.$inferSelect;

/** The customer record is declared once, in the domain, for the server and the web alike. */
export type CustomerOutput = CustomerRecord;

/** The customer record as the API names it (the spec's names). */
export function customerToApi(row: CustomerRow): CustomerRecord {
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
    delete_flag: toDeleteFlag(row.deleteFlag),
    deleted: row.deleted,
    archive_state: archiveState(row),
    actions: customerActions({ deleted: row.deleted, deleteFlag: row.deleteFlag, balance: row.totalBalance }),
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
