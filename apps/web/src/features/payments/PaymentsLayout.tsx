import { AppShell, Container, Group, Paper, Text } from "@mantine/core";
import { Suspense } from "react";
import { Outlet } from "react-router";
import { BrandLink } from "../shell/BrandLink";
import { RouteLoading } from "../shell/RouteLoading";
import { PAYMENT_PROVIDER } from "./payment-form";

/** The public payments page's frame: no navbar (no login needed), wider than login's for the form. */
export function PaymentsLayout() {
  return (
    <AppShell header={{ height: 56 }} padding="lg">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <BrandLink to="/payments" />
          <Text size="sm" c="dimmed">
            Secure payments by {PAYMENT_PROVIDER}
          </Text>
        </Group>
      </AppShell.Header>
      <AppShell.Main bg="gray.0">
        <Container size={640} py="xl">
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
