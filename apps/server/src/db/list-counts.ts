/**
 * The `count` of a list page, kept for a moment per client and filter. Counting a large client's
 * customers or ledger on every page read cost more than the page itself (50 ms for 50,000
 * customers, against well under 1 ms for the 15 rows), which capped the lists at about 70
 * requests a second. A count is reused for at most LIST_COUNT_TTL_MS, and every write request this
 * process answers for a client forgets that client's counts at once, so a user who adds a customer
 * sees the new count. Writes made by another process (a worker's production run, another API
 * process) show in the count within the TTL; the rows themselves are always read fresh.
 */
const LIST_COUNT_TTL_MS = 2_000;
const MAX_KEYS_PER_CLIENT = 200;

type Entry = { value: number; expires: number };
type ClientCounts = { forgottenAt: number; entries: Map<string, Entry> };
const byClient = new Map<number, ClientCounts>();
let allForgottenAt = 0;
/** Counts writes: a count begun at tick n has seen every write forgotten at tick n or before. */
let tick = 0;
const inFlight = new Map<string, { counting: Promise<number>; started: number }>();

export async function cachedCount(
  clientId: number,
  key: string,
  compute: () => Promise<number>,
): Promise<number> {
  const now = Date.now();
  const started = tick;
  const hit = byClient.get(clientId)?.entries.get(key);
  if (hit && hit.expires > now) return hit.value;
  // Requests that miss together share one count instead of each running it.
  const flightKey = `${clientId} ${key}`;
  const forgottenAt = () => Math.max(byClient.get(clientId)?.forgottenAt ?? 0, allForgottenAt);
  const running = inFlight.get(flightKey);
  // Not a count begun before a write this request may have just made.
  if (running && running.started >= forgottenAt()) return running.counting;
  const counting = compute().finally(() => {
    if (inFlight.get(flightKey)?.counting === counting) inFlight.delete(flightKey);
  });
  inFlight.set(flightKey, { counting, started });
  const value = await counting;
  // A write answered while this count was being read may be missing from it: keep it only if none was.
  const current = byClient.get(clientId) ?? { forgottenAt: 0, entries: new Map<string, Entry>() };
  if (forgottenAt() <= started) {
    if (current.entries.size >= MAX_KEYS_PER_CLIENT) current.entries.clear();
    current.entries.set(key, { value, expires: now + LIST_COUNT_TTL_MS });
    byClient.set(clientId, current);
  }
  return value;
}

/** After a write for this client (or for every client when none is named). */
export function forgetCounts(clientId: number | undefined): void {
  tick += 1;
  if (clientId === undefined) {
    byClient.clear();
    allForgottenAt = tick;
    return;
  }
  byClient.set(clientId, { forgottenAt: tick, entries: new Map() });
}
