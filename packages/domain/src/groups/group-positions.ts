// Positions of customers in a group. Users see 1-based positions; stops are stored from 0 and
// every change renumbers the whole group, so there are never gaps or duplicates.

export const NO_GROUP_SELECTED_MESSAGE =
  "No group selected. Please select a group before adding the customer.";

function asWholeNumber(requested: unknown): number | null {
  if (typeof requested === "number") return Number.isFinite(requested) ? Math.trunc(requested) : null;
  if (typeof requested === "string" && /^\s*-?\d{1,15}\s*$/.test(requested)) return Number(requested);
  return null;
}

/**
 * The stop (0-based) a new member takes in a group of `size`: from the first place to one past
 * the last; a larger value clamps to the end, and anything that is not a number means the end.
 */
export function resolveAddStop(requested: unknown, size: number): number {
  const stop = asWholeNumber(requested);
  if (stop === null || stop > size) return size;
  return Math.max(0, stop);
}

/**
 * The stop (0-based) an existing member moves to: within the group; a non-numeric or too large
 * value falls back to the last place.
 */
export function resolveMoveStop(requested: unknown, size: number): number {
  const last = Math.max(0, size - 1);
  const stop = asWholeNumber(requested);
  if (stop === null || stop > last) return last;
  return Math.max(0, stop);
}

/** The member order after putting `member` at `stop` (removing it from where it was). */
export function placeMember<T>(order: readonly T[], member: T, stop: number): T[] {
  const without = order.filter((existing) => existing !== member);
  const at = Math.min(Math.max(0, stop), without.length);
  return [...without.slice(0, at), member, ...without.slice(at)];
}

export function removeMember<T>(order: readonly T[], member: T): T[] {
  return order.filter((existing) => existing !== member);
}

/** Stops 0..n-1 in order. */
export function renumberStops<T>(order: readonly T[]): Map<T, number> {
  return new Map(order.map((member, index) => [member, index]));
}
