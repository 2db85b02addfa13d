import { Box, Group, Tabs } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * An editor's tab list, kept in view under the app header while the page scrolls, with the save button
 * at its right (`action`; undefined leaves out its place) and the save's outcome below it (`children`).
 */
export function StickyTabBar({
  tabs,
  action,
  children,
}: {
  tabs: ReactNode;
  action?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Box
      pos="sticky"
      top="var(--app-shell-header-offset, 0px)"
      bg="var(--mantine-color-gray-0)"
      pt="xs"
      style={{ zIndex: 5 }}
    >
      <Group justify="space-between" align="flex-end" wrap="nowrap" gap="md">
        <Tabs.List style={{ flex: 1 }}>{tabs}</Tabs.List>
        {action === undefined ? null : <Box pb={6}>{action}</Box>}
      </Group>
      {children}
    </Box>
  );
}
