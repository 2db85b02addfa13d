import { useCallback, useSyncExternalStore } from "react";

// The customer chosen in the second bar stays selected across screens (and reloads) in this tab.
// It is stored with its client, so it never leaks into another client's screens.

export type SelectedCustomer = { id: number; customer_no: number | string; customer_name: string };
type Stored = { clientId: number; customer: SelectedCustomer };

const STORAGE_KEY = "cyclebill.selectedCustomer";
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function write(value: Stored | null): void {
  try {
    if (value === null) sessionStorage.removeItem(STORAGE_KEY);
    else sessionStorage.setItem(STORAGE_KEY, JSON.stringify(value));
  } catch (error) {
    console.warn("Could not remember the selected customer", error);
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function parse(raw: string | null): Stored | null {
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<Stored> | null;
    if (typeof value?.clientId !== "number" || typeof value.customer?.id !== "number") return null;
    return value as Stored;
  } catch {
    return null;
  }
}

export function clearSelectedCustomer(): void {
  write(null);
}

export function useSelectedCustomer(clientId: number | null) {
  // Subscribing to the raw string keeps the snapshot stable between writes.
  const raw = useSyncExternalStore(subscribe, read, () => null);
  const stored = parse(raw);
  const customer = stored !== null && stored.clientId === clientId ? stored.customer : null;
  const setCustomer = useCallback(
    (next: SelectedCustomer | null) =>
      write(next === null || clientId === null ? null : { clientId, customer: next }),
    [clientId],
  );
  return { customer, setCustomer };
}
