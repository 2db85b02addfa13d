/** The top bar (brand, client, user, bell) and the selection bar under it. */
export const TOP_BAR_HEIGHT = 56;
export const SECOND_BAR_HEIGHT = 52;
export const HEADER_HEIGHT = TOP_BAR_HEIGHT + SECOND_BAR_HEIGHT;

/**
 * Room kept under every screen's content for a toast (bottom right, one line about 60 px tall, 16 px
 * from the edge): scrolled to the end, a page's last buttons (its pager) sit above the toast.
 */
export const TOAST_CLEARANCE = 96;
