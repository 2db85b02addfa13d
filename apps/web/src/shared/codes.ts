import { CODE_TYPES, CODE_TYPE_LABELS, isCodeType, type Page } from "@cyclebill/domain";
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

/** The code types as codes and reports name them ("Credit adjustment", not "adjust"), for pickers. */
export const CODE_TYPE_OPTIONS = CODE_TYPES.map((type) => ({ value: type, label: CODE_TYPE_LABELS[type] }));

/** A code type's label; a type this web does not know shows as sent. */
export function codeTypeLabel(type: string): string {
  return isCodeType(type) ? CODE_TYPE_LABELS[type] : type;
}
