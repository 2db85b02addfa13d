// Which bell messages the user has read: the texts seen when the bell was last opened, kept in
// the browser per user and client. A message counts as unread until its current text was seen,
// so a changed message lights the badge again.

export type BellMessages = { client_message: string; system_message: string };

const EMPTY: BellMessages = { client_message: "", system_message: "" };

export function unreadCount(current: BellMessages, seen: BellMessages): number {
  const unread = (key: keyof BellMessages) => current[key] !== "" && current[key] !== seen[key];
  return (unread("client_message") ? 1 : 0) + (unread("system_message") ? 1 : 0);
}

export function seenStorageKey(userId: number, clientId: number | null): string {
  return `cyclebill.bell-seen.${String(userId)}.${clientId === null ? "none" : String(clientId)}`;
}

/** What was seen, from storage; anything unreadable counts as nothing seen. */
export function parseSeen(raw: string | null): BellMessages {
  if (raw === null) return EMPTY;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null) return EMPTY;
    const record = value as Record<string, unknown>;
    return {
      client_message: typeof record.client_message === "string" ? record.client_message : "",
      system_message: typeof record.system_message === "string" ? record.system_message : "",
    };
  } catch {
    return EMPTY;
  }
}
