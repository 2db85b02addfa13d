import { Notifications } from "@mantine/notifications";

/**
 * Where toasts (notifications.show) appear. Loaded after the first screen, as it brings its own
 * transitions; a toast shown before it mounts waits in the notifications store and appears then.
 */
export function Toasts() {
  return <Notifications position="top-right" />;
}
