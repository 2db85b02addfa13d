import { useSyncExternalStore } from "react";
import { TOKEN_STORAGE_KEY, readToken } from "./api-client";

// The session is the token in session storage, or in local storage when the user ticked remember me
// (the spec: unticked, it is gone when the browser closes). Components subscribe to it, so storing or clearing the
// token (login, logout, a 401 anywhere) re-renders the guard and the menu at once.

const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab logging out (or in) changes localStorage here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function storeToken(token: string, rememberMe: boolean): void {
  try {
    // One place only, so an older remembered token never outlives this login.
    (rememberMe ? sessionStorage : localStorage).removeItem(TOKEN_STORAGE_KEY);
    (rememberMe ? localStorage : sessionStorage).setItem(TOKEN_STORAGE_KEY, token);
  } catch (error) {
    console.warn("Could not store the session token", error);
  }
  notify();
}

/** Ends the session in this browser: the spec clears local storage; session storage holds the selected customer. */
export function clearSession(): void {
  try {
    localStorage.clear();
    sessionStorage.clear();
  } catch (error) {
    console.warn("Could not clear browser storage", error);
  }
  notify();
}

export function useSessionToken(): string | null {
  return useSyncExternalStore(subscribe, readToken, () => null);
}
