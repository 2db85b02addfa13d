import { AppShell, Container, Group, Paper } from "@mantine/core";
import { Suspense } from "react";
import { Outlet } from "react-router";
import { BrandLink } from "./BrandLink";
import { RouteLoading } from "./RouteLoading";

/** Layout for logged-out pages (login, registration, password reset, payments): no navbar. */
export function PublicLayout() {
  return (
    <AppShell header={{ height: 56 }} padding="lg">
      <AppShell.Header>
        <Group h="100%" px="md">
          <BrandLink to="/" />
        </Group>
      </AppShell.Header>
      <AppShell.Main bg="gray.0">
        <Container size={480} py="xl">
          <Paper withBorder shadow="sm" radius="md" p="xl">
            <Suspense fallback={<RouteLoading />}>
              <Outlet />
            </Suspense>
          </Paper>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
