import { AppShell, Container, Group, Paper } from "@mantine/core";
import { Suspense, type ReactNode } from "react";
import { Outlet } from "react-router";
import { BrandLink } from "./BrandLink";
import { RouteLoading } from "./RouteLoading";

/** The frame of pages that need no login: the brand (linking `home`) and the page on a card, no navbar. */
export function PublicFrame({
  home,
  width,
  headerEnd,
}: {
  home: string;
  width: number;
  headerEnd?: ReactNode;
}) {
  return (
    <AppShell header={{ height: 56 }} padding="lg">
      <AppShell.Header>
        <Group h="100%" px="md" justify={headerEnd ? "space-between" : undefined}>
          <BrandLink to={home} />
          {headerEnd}
        </Group>
      </AppShell.Header>
      <AppShell.Main bg="gray.0">
        <Container size={width} py="xl">
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

/** Layout for logged-out pages (login, registration, password reset, payments): no navbar. */
export function PublicLayout() {
  return <PublicFrame home="/" width={480} />;
}
