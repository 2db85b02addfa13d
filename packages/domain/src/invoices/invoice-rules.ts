// Invoice and statement lifecycle rules, shared by the server (which enforces them) and the web
// app (which shows only the buttons they allow).

export const INVOICE_STATUSES = ["open", "closed", "processed"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** The Invoices and Statements screen's document types. */
export const DOCUMENT_TYPES = ["both", "invoices", "statements"] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const PROCESSED_INVOICE_DELETE_MESSAGE =
  "Processed invoices cannot be deleted. They have already been sent to the customer.";
export const ONLY_INVOICES_DELETABLE_MESSAGE = "Only invoices can be deleted from here.";
export const NO_STATEMENTS_TO_COMBINE_MESSAGE = "No statements to combine";
export const INVOICE_NOT_OPEN_MESSAGE = "Only open invoices can be changed.";
export const INVOICE_ALREADY_CLOSED_MESSAGE = "Only open invoices can be closed.";
/** Get PDF is offered once an invoice is closed (spec): an open invoice's lines may still change. */
export const INVOICE_OPEN_NO_PDF_MESSAGE = "An open invoice has no PDF yet: close it first.";
export const INVOICE_NOT_CLOSED_MESSAGE = "Only closed invoices can be reopened.";
export const PROCESSED_INVOICE_REOPEN_MESSAGE =
  "Processed invoices cannot be reopened. They have already been sent to the customer.";
export const STATEMENT_NOT_PROCESSED_MESSAGE = "Only processed statements can be reopened.";
export const TRANSACTIONS_NOT_ATTACHABLE_MESSAGE =
  "Only the invoice customer's transactions that are not voided and not on another invoice can be added.";
export const INVOICE_CUSTOMER_FIXED_MESSAGE =
  "The customer of an invoice that holds transactions cannot be changed.";

/** What can be done to an invoice from the invoice screens. */
export type InvoiceAction = "edit" | "attach" | "separate" | "close" | "reopen" | "delete";

/** Why the action is refused in this status, or undefined when it is allowed. */
export function invoiceActionRefusal(status: InvoiceStatus, action: InvoiceAction): string | undefined {
  switch (action) {
    case "edit":
    case "attach":
    case "separate":
      return status === "open" ? undefined : INVOICE_NOT_OPEN_MESSAGE;
    case "close":
      return status === "open" ? undefined : INVOICE_ALREADY_CLOSED_MESSAGE;
    case "reopen":
      if (status === "processed") return PROCESSED_INVOICE_REOPEN_MESSAGE;
      return status === "closed" ? undefined : INVOICE_NOT_CLOSED_MESSAGE;
    case "delete":
      return status === "processed" ? PROCESSED_INVOICE_DELETE_MESSAGE : undefined;
  }
}

/** The status an allowed status change leads to. */
export function invoiceStatusAfter(action: "close" | "reopen"): InvoiceStatus {
  return action === "close" ? "closed" : "open";
}

/** The spec shows an invoice number of 0 as 1 (numbers from this server start at 1 anyway). */
export function displayInvoiceNum(invoiceNum: number): number {
  return invoiceNum === 0 ? 1 : invoiceNum;
}

/** "Invoice 1007.pdf"; once a statement carried it, the statement id is named too. */
export function invoiceFileName(invoiceNum: number, statementId: number | null): string {
  const number = displayInvoiceNum(invoiceNum);
  return statementId === null ? `Invoice ${number}.pdf` : `Invoice ${number} Statement ${statementId}.pdf`;
}

export function statementFileName(statementNum: number): string {
  return `Statement ${statementNum}.pdf`;
}

export function combinedStatementsFileName(date: string): string {
  return `Combined Statements ${date}.pdf`;
}

export const ONE_CUSTOMER_MESSAGE =
  "An invoice is for one customer: select transactions of a single customer.";

/** What Make Invoice from Selected needs to know of each selected entry. */
export type InvoiceCandidate = {
  customer: number;
  invoice: number | null;
  invoice_num: number | null;
  voided: boolean;
};

/**
 * Why Make Invoice from Selected cannot run on these entries (the server refuses the same), or
 * null when it can: entries on an invoice or voided cannot move to a new one, and an invoice is
 * for one customer.
 */
export function makeInvoiceRefusal(rows: readonly InvoiceCandidate[]): string | null {
  if (rows.length === 0) return "Select the transactions to put on the new invoice.";
  const invoiced = rows.filter((row) => row.invoice !== null);
  if (invoiced.length > 0) {
    const numbers = [...new Set(invoiced.map((row) => row.invoice_num ?? row.invoice))].join(", ");
    const verb = invoiced.length === 1 ? "is" : "are";
    return `${invoiced.length} of the selected transactions ${verb} already on invoice ${numbers}; unselect ${invoiced.length === 1 ? "it" : "them"} to make an invoice.`;
  }
  const voided = rows.filter((row) => row.voided).length;
  if (voided > 0)
    return `${voided} of the selected transactions ${voided === 1 ? "is" : "are"} voided; unselect ${voided === 1 ? "it" : "them"} to make an invoice.`;
  if (new Set(rows.map((row) => row.customer)).size > 1) return ONE_CUSTOMER_MESSAGE;
  return null;
}
