import {
  AppShell,
  Box,
  Burger,
  Divider,
  Group,
  Menu,
  NavLink,
  ScrollArea,
  Text,
  UnstyledButton,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { Suspense, useEffect } from "react";
import { Link, Outlet, matchPath, useLocation } from "react-router";
import { displayName, useCurrentUser, type UserRole } from "../auth/current-user";
import { RequireAuth } from "../auth/RequireAuth";
import { useUser } from "../auth/user-context";
import { ClientSelect } from "../clients/ClientSelect";
import { useClientContext } from "../../shared/client-context";
import { preloadScreens } from "../../lib/lazy-screen";
import { CustomerSelect } from "../customers/CustomerSelect";
import { BrandLink } from "./BrandLink";
import { HEADER_HEIGHT, SECOND_BAR_HEIGHT, TOAST_CLEARANCE, TOP_BAR_HEIGHT } from "./layout-sizes";
import { NAV_ITEMS, visibleNavItems } from "./nav-items";
import { NotificationBell } from "./NotificationBell";
import { RouteLoading } from "./RouteLoading";

const ROLE_LABELS: Record<UserRole, string> = { admin: "Administrator", owner: "Owner", staff: "Staff" };

/** A user not attached to a client (self-registered, not yet added) is no client's owner or staff. */
function roleLabel(user: { role: UserRole; isAdmin: boolean; client_id: number | null }): string {
  return !user.isAdmin && user.client_id === null ? "Not attached to a client" : ROLE_LABELS[user.role];
}

/** Layout of every logged-in page: top bar, selection bar, navbar. Guarded by RequireAuth. */
export function AppLayout() {
  return (
    <RequireAuth>
      <AuthenticatedShell />
    </RequireAuth>
  );
}

function AuthenticatedShell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const user = useUser();
  const { isAdmin, clientId, clientName, withClient } = useClientContext();
  // Held at second-factor enrolment: nothing but Security and Signout, and nothing that reads data.
  const held = useCurrentUser().data?.second_factor_enrolment_required ?? false;
  const isOwner = user.role === "owner" && user.client_id !== null;
  const items = visibleNavItems(NAV_ITEMS, { loggedIn: true, isAdmin, isOwner, held });
  usePreloadedScreens(isAdmin);

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      navbar={{ width: 240, breakpoint: "sm", collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h={TOP_BAR_HEIGHT} px="md" gap="sm" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
            />
            <BrandLink to={withClient("/home")} />
            <Divider orientation="vertical" h={24} style={{ alignSelf: "center" }} />
            <Text fw={500} truncate="end" data-testid="selected-client-name">
              {clientName ??
                (isAdmin ? (clientId === null ? "No client selected" : "Loading client…") : "No client")}
            </Text>
          </Group>
          <Group gap="md" wrap="nowrap">
            <Menu position="bottom-end" withinPortal keepMounted>
              <Menu.Target>
                {/* Named by the words it shows (WCAG 2.5.3); the title names it where they are hidden. */}
                <UnstyledButton title="Account menu">
                  <Group gap={6} wrap="nowrap">
                    <Box ta="right" visibleFrom="xs">
                      <Text size="sm" fw={500} lh={1.2}>
                        {displayName(user)}
                      </Text>
                      <Text size="xs" c="dimmed" lh={1.2}>
                        {roleLabel(user)}
                      </Text>
                    </Box>
                    <Text size="xs" c="dimmed" aria-hidden>
                      ▾
                    </Text>
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{user.email}</Menu.Label>
                <Menu.Item component={Link} to={withClient("/security")}>
                  Security
                </Menu.Item>
                <Menu.Item component={Link} to="/logout">
                  Sign out
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
            {held ? null : <NotificationBell />}
          </Group>
        </Group>
        <Group
          h={SECOND_BAR_HEIGHT}
          px="md"
          gap="md"
          wrap="nowrap"
          bg="gray.0"
          style={{ borderTop: "1px solid var(--mantine-color-gray-3)", overflowX: "auto" }}
          role="search"
          aria-label="Client and customer selection"
        >
          {isAdmin && !held ? <ClientSelect /> : null}
          {held ? null : <CustomerSelect />}
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" aria-label="Main navigation">
        <AppShell.Section grow component={ScrollArea}>
          {items.map((item) => {
            const active = [item.activePath, ...(item.alsoActive ?? [])].some(
              (path) => matchPath({ path, end: false }, pathname) !== null,
            );
            return (
              <NavLink
                key={item.to}
                component={Link}
                // Admins keep their selected client from screen to screen.
                to={withClient(item.to)}
                label={item.label}
                active={active}
                aria-current={active ? "page" : undefined}
                variant="light"
                // On mobile the navbar overlays the page, so close it once the user has chosen.
                onClick={close}
              />
            );
          })}
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main bg="gray.0" pb={TOAST_CLEARANCE}>
        <Suspense fallback={<RouteLoading />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * Once the first signed-in screen has shown, fetch the chunks of the others this role can open, while
 * the browser is idle, so that no later first visit waits for a script.
 */
function usePreloadedScreens(isAdmin: boolean) {
  useEffect(() => {
    // The mark lets a browser test (and bench:first-load) know the preloading is over.
    const start = () =>
      void preloadScreens({ isAdmin }).then(() => {
        document.documentElement.dataset.screensPreloaded = "true";
      });
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(start, { timeout: 1500 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(start, 200);
    return () => window.clearTimeout(timer);
  }, [isAdmin]);
}
