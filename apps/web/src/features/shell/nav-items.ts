// Navigation entries in the order the spec lists them. The flags let the auth issue filter
// the list per user; until auth exists every entry is shown.
export type NavItem = {
  label: string;
  to: string;
  /** Path prefix that marks the entry active, for sections with child routes. */
  activePath: string;
  adminOnly: boolean;
  loggedInOnly: boolean;
};

export const NAV_ITEMS: readonly NavItem[] = [
  { label: "Home", to: "/home", activePath: "/home", adminOnly: false, loggedInOnly: true },
  {
    label: "Admin Processing",
    to: "/AdminProcessingView",
    activePath: "/AdminProcessingView",
    adminOnly: true,
    loggedInOnly: true,
  },
  { label: "Clients", to: "/clients", activePath: "/clients", adminOnly: true, loggedInOnly: true },
  {
    label: "Customers",
    to: "/customers/manage",
    activePath: "/customers",
    adminOnly: false,
    loggedInOnly: true,
  },
  { label: "Grouping", to: "/routes", activePath: "/routes", adminOnly: false, loggedInOnly: true },
  { label: "Bill Codes", to: "/codes", activePath: "/codes", adminOnly: false, loggedInOnly: true },
  {
    label: "Transactions",
    to: "/transactions/search",
    activePath: "/transactions",
    adminOnly: false,
    loggedInOnly: true,
  },
  {
    label: "Invoices & Statements",
    to: "/invoicesAndStatements",
    activePath: "/invoicesAndStatements",
    adminOnly: false,
    loggedInOnly: true,
  },
  { label: "Reports", to: "/reports", activePath: "/reports", adminOnly: false, loggedInOnly: true },
  { label: "Help", to: "/help", activePath: "/help", adminOnly: false, loggedInOnly: false },
  { label: "Settings", to: "/settings", activePath: "/settings", adminOnly: false, loggedInOnly: true },
  { label: "Signout", to: "/logout", activePath: "/logout", adminOnly: false, loggedInOnly: true },
];
