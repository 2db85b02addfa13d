import type { Page } from "@cyclebill/domain";
import { apiFetch } from "../api/api-client";

/** A bill code as the code typeahead and the code lists return it. */
export type CodeMatch = { id: number; code: number; description: string; code_type: string };

/** The code typeahead: the client's codes above 0 matching a number or description. */
export function searchCodes(clientId: number | null, query: string, signal: AbortSignal) {
  return apiFetch<Page<CodeMatch>>("/typeahead/codes/", { query: { client_id: clientId, query }, signal });
}

export function codeLabel(code: Pick<CodeMatch, "code" | "description">): string {
  return code.description ? `${code.code} · ${code.description}` : String(code.code);
}
