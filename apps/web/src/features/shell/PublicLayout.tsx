import { AppShell, Container, Group, Paper } from "@mantine/core";
import { Outlet } from "react-router";
import { BrandLink } from "./BrandLink";

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
            <Outlet />
          </Paper>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
