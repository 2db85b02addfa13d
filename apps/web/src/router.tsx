import { Outlet, createBrowserRouter, type RouteObject } from "react-router";
import { ForgotPasswordPage } from "./features/auth/ForgotPasswordPage";
import { LoginPage } from "./features/auth/LoginPage";
import { LogoutPage } from "./features/auth/LogoutPage";
import { PasswordResetPage } from "./features/auth/PasswordResetPage";
import { RegisterPage } from "./features/auth/RegisterPage";
import { ClientEditorPage } from "./features/clients/ClientEditorPage";
import { ClientListPage } from "./features/clients/ClientListPage";
import { SettingsPage } from "./features/clients/SettingsPage";
import { CodesPage } from "./features/codes/CodesPage";
import { AddCustomerPage } from "./features/customers/AddCustomerDialog";
import { CustomerEditorPage } from "./features/customers/CustomerEditorPage";
import { CustomerListPage } from "./features/customers/CustomerListPage";
import { CustomerPrintView } from "./features/customers/CustomerPrintView";
import { GroupAdminPage } from "./features/groups/GroupAdminPage";
import { HelpPage } from "./features/help/HelpPage";
import { HomePage } from "./features/home/HomePage";
import { AdminProcessingPage } from "./features/production/AdminProcessingPage";
import { AppLayout } from "./features/shell/AppLayout";
import { NavigateKeepingQuery } from "./features/shell/NavigateKeepingQuery";
import { NotFoundPage } from "./features/shell/NotFoundPage";
import { PlaceholderPage } from "./features/shell/PlaceholderPage";
import { PublicLayout } from "./features/shell/PublicLayout";
import { RouteErrorPage } from "./features/shell/RouteErrorPage";
import { InvoicesAndStatementsPage } from "./features/invoices/InvoicesAndStatementsPage";
import { AddByGroupPage } from "./features/transactions/AddByGroupPage";
import { AddForAllCustomersPage } from "./features/transactions/AddForAllCustomersPage";
import { AddInvoicePage } from "./features/transactions/AddInvoicePage";
import { EditInvoicePage } from "./features/transactions/EditInvoicePage";
import { TransactionSearchPage } from "./features/transactions/TransactionSearchPage";
import { TransactionsLayout } from "./features/transactions/TransactionsLayout";

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
          { path: "/forgotPassword", element: <ForgotPasswordPage /> },
          { path: "/passwordReset", element: <PasswordResetPage /> },
          { path: "/payments", element: <PlaceholderPage title="Payments" /> },
        ],
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
              { path: "processCC", element: <PlaceholderPage title="Process Credit Cards" /> },
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
          { path: "/reports", element: <PlaceholderPage title="Reports" /> },
          { path: "/settings", element: <SettingsPage /> },
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
