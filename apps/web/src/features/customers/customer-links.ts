// Addresses of the customer screens and of the screens that show a customer's activity.

export const CUSTOMER_IDS_PARAM = "ids";

/** The customer editor (pass it through withClient so admins keep their client). */
export function editorPath(customerId: number): string {
  return `/customers/edit/${String(customerId)}`;
}

/** Address labels for the chosen customers (pass it through withClient). */
export function labelsPath(customerIds: readonly number[]): string {
  return `/customerPrintView?${CUSTOMER_IDS_PARAM}=${customerIds.join(",")}`;
}

/** The spec's links: transaction search (all, or payments only) and invoices & statements, with the client. */
export function customerLinks(clientId: number, customerId: number) {
  const query = `client_id=${String(clientId)}&customer_id=${String(customerId)}`;
  return {
    transactions: `/transactions/search?${query}`,
    payments: `/transactions/search?${query}&transaction_code_type=payment`,
    invoices: `/invoicesAndStatements?${query}`,
  };
}

/** Customer ids from the labels page's address: "12,15,20"; anything else is skipped. */
export function parseCustomerIds(raw: string | null): number[] {
  if (!raw) return [];
  const ids = raw
    .split(",")
    .map((part) => part.trim())
    .filter((part) => /^\d{1,15}$/.test(part))
    .map(Number)
    .filter((id) => id > 0);
  return [...new Set(ids)];
}
