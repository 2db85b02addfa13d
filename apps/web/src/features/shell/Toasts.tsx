import { Notifications } from "@mantine/notifications";
import classes from "./Toasts.module.css";

/** A toast's width at most: a short line of text, not a banner across the page. */
const TOAST_WIDTH = 360;

/**
 * Where toasts (notifications.show) appear, on every screen. On a desktop bottom right: the page's
 * actions sit at the top (the header's buttons, the sticky tab bar's Save), where toasts used to
 * cover them (issue 41.7), and the top bars keep the user's name and the bell; screens keep
 * TOAST_CLEARANCE free under their content, so a page scrolled to its end shows its last buttons
 * above the toast. On a phone over the top bar (Toasts.module.css), where it covers no part of the
 * page. Loaded after the first screen, as it brings its own transitions; a toast shown before it
 * mounts waits in the store and appears then.
 */
export function Toasts() {
  return (
    <Notifications position="bottom-right" containerWidth={TOAST_WIDTH} classNames={{ root: classes.root }} />
  );
}
