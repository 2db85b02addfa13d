/**
 * Something a process keeps per client and brings up to date from the database on each use (a
 * client's book, its counts). One refresh runs at a time per client; callers arriving while one runs
 * share the next one, which starts after they arrived, so each caller's answer is at least as new as
 * the moment it asked, and a crowd of requests costs one round trip, not one each.
 */
type Slot<T> = { kept?: T; running?: Promise<T>; queued?: Promise<T> };

export type RefreshSlots<T> = { slots: WeakMap<object, Map<number, Slot<T>>>; maxClients: number };

export function refreshSlots<T>(maxClients: number): RefreshSlots<T> {
  return { slots: new WeakMap(), maxClients };
}

function slotOf<T>(store: RefreshSlots<T>, db: object, clientId: number): Slot<T> {
  let byClient = store.slots.get(db);
  if (!byClient) {
    byClient = new Map();
    store.slots.set(db, byClient);
  }
  let slot = byClient.get(clientId);
  if (slot) {
    // Most recently used last, so the first is the one to drop.
    byClient.delete(clientId);
  } else {
    slot = {};
    if (byClient.size >= store.maxClients) {
      const oldest = byClient.keys().next().value;
      if (oldest !== undefined) byClient.delete(oldest);
    }
  }
  byClient.set(clientId, slot);
  return slot;
}

/** `refresh(previous)` run as described above; what it answers is kept for the next one. */
export function sharedRefresh<T>(
  store: RefreshSlots<T>,
  db: object,
  clientId: number,
  refresh: (previous: T | undefined) => Promise<T>,
): Promise<T> {
  const slot = slotOf(store, db, clientId);
  if (slot.queued) return slot.queued;
  const before = slot.running;
  const run = async (): Promise<T> => {
    if (slot.queued === next) slot.queued = undefined;
    slot.running = next;
    try {
      const kept = await refresh(slot.kept);
      slot.kept = kept;
      return kept;
    } finally {
      if (slot.running === next) slot.running = undefined;
    }
  };
  // Starts once the running refresh (if any) is over, never inside this call.
  const next: Promise<T> = (before ? before.catch(() => undefined) : Promise.resolve()).then(run);
  if (before) slot.queued = next;
  else slot.running = next;
  return next;
}
