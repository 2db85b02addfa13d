// Navigation entries in the order the spec lists them. Per the spec, Admin Processing and Clients
// are admin only, and Settings and Signout are for logged-in users only.
export type NavItem = {
  label: string;
  to: string;
  /** Path prefix that marks the entry active, for sections with child routes. */
  activePath: string;
  /** Other screens that belong to the section (outside its path prefix). */
  alsoActive?: readonly string[];
  adminOnly: boolean;
  /** Only for the client's owners and the provider's admins (staff do not see it). */
  ownersAndAdminsOnly?: boolean;
  loggedInOnly: boolean;
};

export const NAV_ITEMS: readonly NavItem[] = [
  { label: "Home", to: "/home", activePath: "/home", adminOnly: false, loggedInOnly: false },
  {
    label: "Admin Processing",
    to: "/AdminProcessingView",
    activePath: "/AdminProcessingView",
    adminOnly: true,
    loggedInOnly: false,
  },
  { label: "Clients", to: "/clients", activePath: "/clients", adminOnly: true, loggedInOnly: false },
  {
    label: "Customers",
    to: "/customers/manage",
    activePath: "/customers",
    alsoActive: ["/customerPrintView", "/addCustomer"],
    adminOnly: false,
    loggedInOnly: false,
  },
  { label: "Grouping", to: "/routes", activePath: "/routes", adminOnly: false, loggedInOnly: false },
  { label: "Bill Codes", to: "/codes", activePath: "/codes", adminOnly: false, loggedInOnly: false },
  {
    label: "Transactions",
    to: "/transactions/search",
    activePath: "/transactions",
    adminOnly: false,
    loggedInOnly: false,
  },
  {
    label: "Invoices & Statements",
    to: "/invoicesAndStatements",
    activePath: "/invoicesAndStatements",
    adminOnly: false,
    loggedInOnly: false,
  },
  { label: "Reports", to: "/reports", activePath: "/reports", adminOnly: false, loggedInOnly: false },
  {
    label: "Access review",
    to: "/access-review",
    activePath: "/access-review",
    adminOnly: false,
    ownersAndAdminsOnly: true,
    loggedInOnly: true,
  },
  { label: "Help", to: "/help", activePath: "/help", adminOnly: false, loggedInOnly: false },
  { label: "Settings", to: "/settings", activePath: "/settings", adminOnly: false, loggedInOnly: true },
  { label: "Security", to: "/security", activePath: "/security", adminOnly: false, loggedInOnly: true },
  { label: "Signout", to: "/logout", activePath: "/logout", adminOnly: false, loggedInOnly: true },
];

/** held: the user must set up a second factor first, and sees only Security and Signout. */
/** isOwner: a client's owner (not staff, attached to a client). */
export type NavViewer = { loggedIn: boolean; isAdmin: boolean; isOwner?: boolean; held?: boolean };

/** What a user held at second-factor enrolment can open. */
export const ENROLMENT_PATHS: readonly string[] = ["/security", "/logout"];

export function visibleNavItems(items: readonly NavItem[], viewer: NavViewer): NavItem[] {
  if (viewer.held) return items.filter((item) => ENROLMENT_PATHS.includes(item.to));
  return items.filter(
    (item) =>
      (!item.adminOnly || viewer.isAdmin) &&
      (!item.ownersAndAdminsOnly || viewer.isAdmin || viewer.isOwner === true) &&
      (!item.loggedInOnly || viewer.loggedIn),
  );
}
