import { Stack, Tabs } from "@mantine/core";
import { Suspense, useEffect } from "react";
import { Outlet, useLocation, useNavigate } from "react-router";
import { useClientContext } from "../../shared/client-context";
import { RouteLoading } from "../shell/RouteLoading";

const TABS = [
  { value: "/transactions/search", label: "Search Transactions" },
  { value: "/transactions/invoice/add", label: "Create Invoice" },
  { value: "/transactions/addByRoute", label: "Add Group Transactions" },
] as const;

/** The transactions area: its tabs, and Escape back to search (spec section 2). */
export function TransactionsLayout() {
  const location = useLocation();
  const navigate = useNavigate();
  const { withClient } = useClientContext();

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // An open dialog or an edited row takes Escape for itself.
      if (event.key !== "Escape" || event.defaultPrevented) return;
      if (document.querySelector("[role=dialog]")) return;
      if (location.pathname !== "/transactions/search") void navigate(withClient("/transactions/search"));
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [location.pathname, navigate, withClient]);

  // Add to all customers lives under the Add Group Transactions tab too.
  const path = location.pathname.replace("/transactions/addForAllCustomers", "/transactions/addByRoute");
  const active = TABS.find((tab) => path.startsWith(tab.value))?.value ?? null;
  return (
    <Stack gap="md">
      <Tabs
        value={active}
        onChange={(value) => {
          if (value) void navigate(withClient(value));
        }}
      >
        <Tabs.List>
          {TABS.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Suspense fallback={<RouteLoading />}>
        <Outlet />
      </Suspense>
    </Stack>
  );
}
