import { AppShell, Burger, Group, NavLink, ScrollArea } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { Link, Outlet, matchPath, useLocation } from "react-router";
import { BrandLink } from "./BrandLink";
import { NAV_ITEMS } from "./nav-items";

export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: "sm", collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" gap="sm">
          <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
          <BrandLink to="/home" />
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" aria-label="Main navigation">
        <AppShell.Section grow component={ScrollArea}>
          {NAV_ITEMS.map((item) => {
            const active = matchPath({ path: item.activePath, end: false }, pathname) !== null;
            return (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
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

      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
