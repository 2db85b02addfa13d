import { Notifications } from "@mantine/notifications";

/** A toast's width at most: a short line of text, not a banner across the page. */
const TOAST_WIDTH = 360;

/**
 * Where toasts (notifications.show) appear, on every screen: bottom right. The page's actions sit
 * at the top (the header's buttons, the sticky tab bar's Save), where toasts used to cover them
 * (issue 41.7); the top bars keep the user's name and the bell. On a phone a toast spans the width
 * at the foot of the screen. Loaded after the first screen, as it brings its own transitions; a
 * toast shown before it mounts waits in the store and appears then.
 */
export function Toasts() {
  return <Notifications position="bottom-right" containerWidth={TOAST_WIDTH} />;
}
