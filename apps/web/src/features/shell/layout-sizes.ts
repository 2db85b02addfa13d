/** The top bar (brand, client, user, bell) and the selection bar under it. */
export const TOP_BAR_HEIGHT = 56;
export const SECOND_BAR_HEIGHT = 52;
export const HEADER_HEIGHT = TOP_BAR_HEIGHT + SECOND_BAR_HEIGHT;
