import { WebAuthnError } from "@simplewebauthn/browser";

/**
 * What to tell the user when the browser's passkey prompt did not give an answer; null when the
 * error came from elsewhere (the API's errors speak for themselves).
 */
export function passkeyErrorMessage(error: unknown): string | null {
  if (error instanceof WebAuthnError) {
    if (error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED")
      return "This passkey is already set up for your account.";
    if (error.code === "ERROR_CEREMONY_ABORTED") return "The passkey prompt was closed.";
    return error.message;
  }
  // Closed, timed out or refused: browsers say NotAllowedError for each, on purpose.
  if (error instanceof Error && error.name === "NotAllowedError")
    return "The passkey prompt was closed or timed out. Try again.";
  if (error instanceof Error && error.name === "SecurityError")
    return "Passkeys do not work on this address. Open Cyclebill at its public address.";
  return null;
}
