import { Outlet, createBrowserRouter, type RouteObject } from "react-router";
import { lazyScreen } from "./lib/lazy-screen";
import { LoginPage } from "./features/auth/LoginPage";
import { NavigateKeepingQuery } from "./features/shell/NavigateKeepingQuery";
import { NotFoundPage } from "./features/shell/NotFoundPage";
import { PublicLayout } from "./features/shell/PublicLayout";
import { RouteErrorPage } from "./features/shell/RouteErrorPage";

// Every screen but login loads on first use, in its own chunk (the layouts hold the <Suspense>).
const ForgotPasswordPage = lazyScreen(
  () => import("./features/auth/ForgotPasswordPage"),
  "ForgotPasswordPage",
  "public",
);
const LogoutPage = lazyScreen(() => import("./features/auth/LogoutPage"), "LogoutPage");
const PasswordResetPage = lazyScreen(
  () => import("./features/auth/PasswordResetPage"),
  "PasswordResetPage",
  "public",
);
const RegisterPage = lazyScreen(() => import("./features/auth/RegisterPage"), "RegisterPage", "public");
const ConfirmRegistrationPage = lazyScreen(
  () => import("./features/auth/ConfirmRegistrationPage"),
  "ConfirmRegistrationPage",
  "public",
);
const ClientEditorPage = lazyScreen(
  () => import("./features/clients/ClientEditorPage"),
  "ClientEditorPage",
  "admins",
);
const ClientListPage = lazyScreen(
  () => import("./features/clients/ClientListPage"),
  "ClientListPage",
  "admins",
);
const SettingsPage = lazyScreen(() => import("./features/clients/SettingsPage"), "SettingsPage");
const CodesPage = lazyScreen(() => import("./features/codes/CodesPage"), "CodesPage");
const AddCustomerPage = lazyScreen(() => import("./features/customers/AddCustomerDialog"), "AddCustomerPage");
const CustomerEditorPage = lazyScreen(
  () => import("./features/customers/CustomerEditorPage"),
  "CustomerEditorPage",
);
const CustomerListPage = lazyScreen(
  () => import("./features/customers/CustomerListPage"),
  "CustomerListPage",
);
const CustomerPrintView = lazyScreen(
  () => import("./features/customers/CustomerPrintView"),
  "CustomerPrintView",
);
const GroupAdminPage = lazyScreen(() => import("./features/groups/GroupAdminPage"), "GroupAdminPage");
const HelpPage = lazyScreen(() => import("./features/help/HelpPage"), "HelpPage");
const HomePage = lazyScreen(() => import("./features/home/HomePage"), "HomePage");
const AdminProcessingPage = lazyScreen(
  () => import("./features/production/AdminProcessingPage"),
  "AdminProcessingPage",
  "admins",
);
const AccountReportsPage = lazyScreen(
  () => import("./features/reports/AccountReportsPage"),
  "AccountReportsPage",
);
const ReconciliationPage = lazyScreen(
  () => import("./features/reconciliation/ReconciliationPage"),
  "ReconciliationPage",
);
const AuditPage = lazyScreen(() => import("./features/audit/AuditPage"), "AuditPage");
const AccessReviewPage = lazyScreen(
  () => import("./features/access-review/AccessReviewPage"),
  "AccessReviewPage",
);
const SecurityPage = lazyScreen(() => import("./features/security/SecurityPage"), "SecurityPage");
const AppLayout = lazyScreen(() => import("./features/shell/AppLayout"), "AppLayout");
const InvoicesAndStatementsPage = lazyScreen(
  () => import("./features/invoices/InvoicesAndStatementsPage"),
  "InvoicesAndStatementsPage",
);
const AddByGroupPage = lazyScreen(() => import("./features/transactions/AddByGroupPage"), "AddByGroupPage");
const AddForAllCustomersPage = lazyScreen(
  () => import("./features/transactions/AddForAllCustomersPage"),
  "AddForAllCustomersPage",
);
const AddInvoicePage = lazyScreen(() => import("./features/transactions/AddInvoicePage"), "AddInvoicePage");
const EditInvoicePage = lazyScreen(
  () => import("./features/transactions/EditInvoicePage"),
  "EditInvoicePage",
);
const TransactionSearchPage = lazyScreen(
  () => import("./features/transactions/TransactionSearchPage"),
  "TransactionSearchPage",
);
const PaymentsLayout = lazyScreen(() => import("./features/payments/PaymentsLayout"), "PaymentsLayout");
const PaymentsPage = lazyScreen(() => import("./features/payments/PaymentsPage"), "PaymentsPage");
const ProcessCCPage = lazyScreen(() => import("./features/payments/ProcessCCPage"), "ProcessCCPage");
const TransactionsLayout = lazyScreen(
  () => import("./features/transactions/TransactionsLayout"),
  "TransactionsLayout",
);

// Feature issues replace each PlaceholderPage with the real screen.
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      { path: "/login", element: <NavigateKeepingQuery to="/" /> },
      {
        // Logged-out pages: no navbar.
        element: <PublicLayout />,
        children: [
          // Route name in the spec: LoginForm.
          { path: "/", element: <LoginPage /> },
          { path: "/logout", element: <LogoutPage /> },
          { path: "/register", element: <RegisterPage /> },
          // The registration email's link ("register" in the path keeps it public, as the spec's guard reads).
          { path: "/register/confirm", element: <ConfirmRegistrationPage /> },
          { path: "/forgotPassword", element: <ForgotPasswordPage /> },
          { path: "/passwordReset", element: <PasswordResetPage /> },
        ],
      },
      {
        // The public payment page (no login), also the staff payment form from a customer.
        element: <PaymentsLayout />,
        children: [{ path: "/payments", element: <PaymentsPage /> }],
      },
      {
        // Guarded: AppLayout sends logged-out users to login with a redirect back.
        element: <AppLayout />,
        children: [
          { path: "/home", element: <HomePage /> },
          {
            path: "/customers",
            element: <Outlet />,
            children: [
              // The spec names no default child; the navbar links to manage, so bare /customers goes there too.
              { index: true, element: <NavigateKeepingQuery to="/customers/manage" /> },
              { path: "manage", element: <CustomerListPage /> },
              { path: "edit/:customerId", element: <CustomerEditorPage /> },
              { path: "processCC", element: <ProcessCCPage /> },
            ],
          },
          { path: "/customerPrintView", element: <CustomerPrintView /> },
          { path: "/addCustomer", element: <AddCustomerPage /> },
          { path: "/clients", element: <ClientListPage /> },
          { path: "/clients/:clientId", element: <ClientEditorPage /> },
          { path: "/codes", element: <CodesPage /> },
          { path: "/routes", element: <GroupAdminPage /> },
          { path: "/help", element: <HelpPage /> },
          { path: "/AdminProcessingView", element: <AdminProcessingPage /> },
          { path: "/reports", element: <AccountReportsPage /> },
          { path: "/reconciliation", element: <ReconciliationPage /> },
          { path: "/audit", element: <AuditPage /> },
          { path: "/access-review", element: <AccessReviewPage /> },
          { path: "/security", element: <SecurityPage /> },
          { path: "/settings", element: <SettingsPage /> },
          { path: "/security", element: <SecurityPage /> },
          {
            path: "/transactions",
            element: <TransactionsLayout />,
            children: [
              { index: true, element: <NavigateKeepingQuery to="/transactions/search" /> },
              { path: "search", element: <TransactionSearchPage /> },
              { path: "invoice/add", element: <AddInvoicePage /> },
              { path: "invoice/edit/:invoiceId", element: <EditInvoicePage /> },
              { path: "addByRoute", element: <AddByGroupPage /> },
              {
                path: "addForAllCustomers",
                element: <AddForAllCustomersPage />,
              },
            ],
          },
          { path: "/invoicesAndStatements", element: <InvoicesAndStatementsPage /> },
          { path: "*", element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
