import { useSyncExternalStore } from "react";

// The recovery codes just made, shown until the user says they saved them. Kept outside the
// component: confirming a factor swaps the session's token, and the page may mount afresh.
let shown: readonly string[] | null = null;
const listeners = new Set<() => void>();

export function showRecoveryCodes(codes: readonly string[] | null): void {
  shown = codes;
  for (const listener of listeners) listener();
}

export function useShownRecoveryCodes(): readonly string[] | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => shown,
    () => null,
  );
}
