import { Navigate, Outlet, createBrowserRouter, type RouteObject } from "react-router";
import { AppLayout } from "./features/shell/AppLayout";
import { NotFoundPage } from "./features/shell/NotFoundPage";
import { PlaceholderPage } from "./features/shell/PlaceholderPage";
import { PublicLayout } from "./features/shell/PublicLayout";
import { RouteErrorPage } from "./features/shell/RouteErrorPage";

// Feature issues replace each PlaceholderPage with the real screen.
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      { path: "/login", element: <Navigate to="/" replace /> },
      {
        // Logged-out pages: no navbar.
        element: <PublicLayout />,
        children: [
          { path: "/", element: <PlaceholderPage title="Login" /> },
          { path: "/logout", element: <PlaceholderPage title="Sign Out" /> },
          { path: "/register", element: <PlaceholderPage title="Register" /> },
          { path: "/forgotPassword", element: <PlaceholderPage title="Forgot Password" /> },
          { path: "/passwordReset", element: <PlaceholderPage title="Reset Password" /> },
          { path: "/payments", element: <PlaceholderPage title="Payments" /> },
        ],
      },
      {
        element: <AppLayout />,
        children: [
          { path: "/home", element: <PlaceholderPage title="Home" /> },
          {
            path: "/customers",
            element: <Outlet />,
            children: [
              // The spec names no default child; the navbar links to manage, so bare /customers goes there too.
              { index: true, element: <Navigate to="manage" replace /> },
              { path: "manage", element: <PlaceholderPage title="Manage Customers" /> },
              { path: "processCC", element: <PlaceholderPage title="Process Credit Cards" /> },
            ],
          },
          { path: "/customerPrintView", element: <PlaceholderPage title="Customer Print View" /> },
          { path: "/addCustomer", element: <PlaceholderPage title="Add Customer" /> },
          { path: "/clients", element: <PlaceholderPage title="Clients" /> },
          { path: "/codes", element: <PlaceholderPage title="Bill Codes" /> },
          { path: "/routes", element: <PlaceholderPage title="Grouping" /> },
          { path: "/help", element: <PlaceholderPage title="Help" /> },
          { path: "/AdminProcessingView", element: <PlaceholderPage title="Admin Processing" /> },
          { path: "/reports", element: <PlaceholderPage title="Reports" /> },
          { path: "/settings", element: <PlaceholderPage title="Settings" /> },
          {
            path: "/transactions",
            element: <Outlet />,
            children: [
              { index: true, element: <Navigate to="search" replace /> },
              { path: "search", element: <PlaceholderPage title="Search Transactions" /> },
              { path: "invoice/add", element: <PlaceholderPage title="Add Invoice" /> },
              { path: "invoice/edit/:invoiceId", element: <PlaceholderPage title="Edit Invoice" /> },
              { path: "addByRoute", element: <PlaceholderPage title="Add Transactions by Grouping" /> },
              {
                path: "addForAllCustomers",
                element: <PlaceholderPage title="Add Transactions for All Customers" />,
              },
            ],
          },
          { path: "/invoicesAndStatements", element: <PlaceholderPage title="Invoices & Statements" /> },
          { path: "*", element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
