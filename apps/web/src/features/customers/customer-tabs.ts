/** The customer editor's tabs, in order; the URL's ?tab= names one (none: details). */
export const CUSTOMER_TABS = [
  "details",
  "stored",
  "recurring",
  "status",
  "groups",
  "payments",
  "history",
] as const;
export type CustomerTab = (typeof CUSTOMER_TABS)[number];
export const CUSTOMER_TAB_LABELS: Record<CustomerTab, string> = {
  details: "Customer Details",
  stored: "Stored Amounts",
  recurring: "Recurring Charges",
  status: "Status",
  groups: "Groups",
  payments: "Payments",
  history: "History",
};

export function isTab(value: string | null): value is CustomerTab {
  return (CUSTOMER_TABS as readonly string[]).includes(value ?? "");
}
