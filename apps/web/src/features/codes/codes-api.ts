import { MAX_PAGE_SIZE, type CodeInput, type CodeType } from "@cyclebill/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
import type { Page } from "@cyclebill/domain";

/** A bill code as the API returns it. Negative numbers are system codes. */
export type Code = {
  id: number;
  client: number;
  code: number;
  code_name: string;
  description: string;
  code_type: CodeType;
  taxable: boolean;
};

export type CodeMassUpdate = { ids: number[]; code_type: CodeType | ""; taxable?: boolean };

/** System codes are made by the system and can be neither changed nor deleted. */
export function isSystemCode(code: Pick<Code, "code">): boolean {
  return code.code < 0;
}

/** Spec section 9: code lists hide numbers 0 or lower unless system codes are shown. */
export function isShownByDefault(code: Pick<Code, "code">): boolean {
  return code.code > 0;
}

export const codesKey = (clientId: number) => ["codes", clientId] as const;

/** Every code of the client (a client has a few hundred at most); the screen filters, sorts and pages. */
export function useCodes(clientId: number) {
  return useQuery({
    queryKey: codesKey(clientId),
    queryFn: ({ signal }) =>
      apiFetch<Page<Code>>("/codes/", {
        query: { client_id: clientId, limit: MAX_PAGE_SIZE, ordering: "code" },
        signal,
      }),
  });
}

/** Add (id null) or replace a code. The screens report failures themselves. */
export function useSaveCode(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CodeInput }) =>
      id === null
        ? apiFetch<Code>("/codes/", { method: "POST", query: { client_id: clientId }, body, handles: [400] })
        : apiFetch<Code>(`/codes/${String(id)}/`, {
            method: "PUT",
            query: { client_id: clientId },
            body,
            handles: [400],
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: codesKey(clientId) }),
  });
}

export function useDeleteCode(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<void>(`/codes/${String(id)}/`, { method: "DELETE", query: { client_id: clientId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: codesKey(clientId) }),
  });
}

export function useMassUpdateCodes(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CodeMassUpdate) =>
      apiFetch<Page<Code>>("/codes/mass-update/", { method: "POST", query: { client_id: clientId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: codesKey(clientId) }),
  });
}
