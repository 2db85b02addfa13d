import { Notifications } from "@mantine/notifications";
import classes from "./Toasts.module.css";

/**
 * Where toasts (notifications.show) appear: top right, under the header bars, so they never cover
 * the user's name, the bell or the client and customer pickers. Loaded after the first screen, as
 * it brings its own transitions; a toast shown before it mounts waits in the store and appears then.
 */
export function Toasts() {
  return <Notifications position="top-right" classNames={{ root: classes.root }} />;
}
