/**
 * The `count` of a filtered list page, kept for a moment per client and filter (the unfiltered
 * counts, customers and the whole ledger, are kept exactly: modules/summary/client-counts.ts).
 * Counting a large client's customers or ledger on every page read cost more than the page itself
 * (50 ms for 50,000 customers, against well under 1 ms for the 15 rows), which capped the lists at
 * about 70 requests a second. A count is reused for at most LIST_COUNT_TTL_MS, and every write request this
 * process answers for a client forgets that client's counts at once, so a user who adds a customer
 * sees the new count. Writes made by another process (a worker's production run, another API
 * process) show in the count within the TTL; the rows themselves are always read fresh.
 */
const LIST_COUNT_TTL_MS = 2_000;
const MAX_KEYS_PER_CLIENT = 200;

type Entry = { value: number; expires: number };
type ClientCounts = { forgottenAt: number; entries: Map<string, Entry> };
type Store = {
  byClient: Map<number, ClientCounts>;
  allForgottenAt: number;
  inFlight: Map<string, { counting: Promise<number>; started: number }>;
};
/** One store per database handle, so two databases in one process (tests) never share a count. */
const stores = new WeakMap<object, Store>();
/** Counts writes: a count begun at tick n has seen every write forgotten at tick n or before. */
let tick = 0;

function storeOf(db: object): Store {
  let store = stores.get(db);
  if (!store) {
    store = { byClient: new Map(), allForgottenAt: 0, inFlight: new Map() };
    stores.set(db, store);
  }
  return store;
}

export async function cachedCount(
  db: object,
  clientId: number,
  key: string,
  compute: () => Promise<number>,
): Promise<number> {
  const store = storeOf(db);
  const now = Date.now();
  const started = tick;
  const hit = store.byClient.get(clientId)?.entries.get(key);
  if (hit && hit.expires > now) return hit.value;
  // Requests that miss together share one count instead of each running it.
  const flightKey = `${clientId} ${key}`;
  const forgottenAt = () => Math.max(store.byClient.get(clientId)?.forgottenAt ?? 0, store.allForgottenAt);
  const running = store.inFlight.get(flightKey);
  // Not a count begun before a write this request may have just made.
  if (running && running.started >= forgottenAt()) return running.counting;
  const counting = compute().finally(() => {
    if (store.inFlight.get(flightKey)?.counting === counting) store.inFlight.delete(flightKey);
  });
  store.inFlight.set(flightKey, { counting, started });
  const value = await counting;
  // A write answered while this count was being read may be missing from it: keep it only if none was.
  const current = store.byClient.get(clientId) ?? { forgottenAt: 0, entries: new Map<string, Entry>() };
  if (forgottenAt() <= started) {
    if (current.entries.size >= MAX_KEYS_PER_CLIENT) current.entries.clear();
    current.entries.set(key, { value, expires: now + LIST_COUNT_TTL_MS });
    store.byClient.set(clientId, current);
  }
  return value;
}

/** After a write for this client (or for every client when none is named). */
export function forgetCounts(db: object, clientId: number | undefined): void {
  const store = storeOf(db);
  tick += 1;
  if (clientId === undefined) {
    store.byClient.clear();
    store.allForgottenAt = tick;
    return;
  }
  store.byClient.set(clientId, { forgottenAt: tick, entries: new Map() });
}
