import type {
  PasskeyEnrolled,
  PasskeyOptions,
  RecoveryCodes,
  RemovePasskeyInput,
  RemoveTotpInput,
  SecondFactorStatus,
  TotpEnrolment,
} from "@cyclebill/domain";
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { TOKEN_STORAGE_KEY, apiFetch } from "../../api/api-client";
import { storeToken } from "../../api/session";
import { meQueryKey, type MeResponse } from "../auth/current-user";

const statusKey = ["second-factor"] as const;

export function useSecondFactorStatus() {
  return useQuery({
    queryKey: statusKey,
    queryFn: ({ signal }) => apiFetch<SecondFactorStatus>("/me/second-factor/", { signal }),
  });
}

/**
 * Confirming or removing a factor ends every other session, this one's token included: the answer
 * carries a fresh token, kept where the old one was. The user is known already, so the guard does
 * not reload them (and the page keeps what it shows).
 */
function adoptFreshToken(queryClient: QueryClient, token: string, enrolled: boolean): void {
  const me = queryClient
    .getQueriesData<MeResponse>({ queryKey: ["me"] })
    .map(([, data]) => data)
    .find(Boolean);
  if (me)
    queryClient.setQueryData(meQueryKey(token), {
      ...me,
      second_factor_enrolment_required: enrolled ? false : me.second_factor_enrolment_required,
    });
  let remembered = false;
  try {
    remembered = localStorage.getItem(TOKEN_STORAGE_KEY) !== null;
  } catch {
    // Storage unavailable: keep it for this tab only.
  }
  storeToken(token, remembered);
}

export function useStartTotp() {
  return useMutation({
    mutationFn: () => apiFetch<TotpEnrolment>("/me/second-factor/totp/", { method: "POST", handles: [400] }),
  });
}

export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiFetch<RecoveryCodes>("/me/second-factor/totp/confirm/", {
        method: "POST",
        body: { code },
        handles: [400],
      }),
    onSuccess: (answer) => {
      if (answer.token) adoptFreshToken(queryClient, answer.token, true);
      void queryClient.invalidateQueries({ queryKey: statusKey });
    },
  });
}

export function useRemoveTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RemoveTotpInput) =>
      apiFetch<{ token: string }>("/me/second-factor/totp/", {
        method: "DELETE",
        body,
        handles: [400, 429],
      }),
    onSuccess: (answer) => {
      adoptFreshToken(queryClient, answer.token, false);
      void queryClient.invalidateQueries({ queryKey: statusKey });
    },
  });
}

export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiFetch<RecoveryCodes>("/me/second-factor/recovery-codes/", {
        method: "POST",
        body: { code },
        handles: [400, 429],
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: statusKey }),
  });
}

/**
 * Adds a passkey: the server's options, the browser's prompt, the answer checked and kept under the
 * name given. Like confirming the app, it ends other sessions and hands over a fresh token.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const { options } = await apiFetch<PasskeyOptions>("/me/second-factor/passkeys/options/", {
        method: "POST",
        handles: [400],
      });
      const response = await startRegistration({
        // The server builds these options with @simplewebauthn/server, for this very call.
        optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
      });
      return apiFetch<PasskeyEnrolled>("/me/second-factor/passkeys/", {
        method: "POST",
        body: { name, response },
        handles: [400],
      });
    },
    onSuccess: (answer) => {
      adoptFreshToken(queryClient, answer.token, true);
      void queryClient.invalidateQueries({ queryKey: statusKey });
    },
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: RemovePasskeyInput & { id: number }) =>
      apiFetch<{ token: string }>(`/me/second-factor/passkeys/${id}/`, {
        method: "DELETE",
        body,
        handles: [400, 404, 429],
      }),
    onSuccess: (answer) => {
      adoptFreshToken(queryClient, answer.token, false);
      void queryClient.invalidateQueries({ queryKey: statusKey });
    },
  });
}

/** A provider admin removes a user's lost factor, with why. */
export function useResetSecondFactor() {
  return useMutation({
    mutationFn: ({ userId, reason }: { userId: number; reason: string }) =>
      apiFetch<{ detail: string }>(`/users/${userId}/second-factor/reset/`, {
        method: "POST",
        body: { reason },
        handles: [400],
      }),
  });
}
