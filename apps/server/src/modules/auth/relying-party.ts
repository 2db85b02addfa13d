/** Who the browser's passkeys are for: the RP ID (a host) and the origins an answer may come from. */
export type RelyingParty = { rpID: string; origins: string[] };

export const RELYING_PARTY_NAME = "Cyclebill";

/**
 * The app's public address (PUBLIC_URL, http://localhost:PORT when unset) decides both. On a
 * developer's machine the web app may be served from another port (Vite's dev server): a browser
 * scopes passkeys by host, not port, so any localhost origin the request names is accepted there.
 */
export function relyingPartyOf(publicUrl: string, requestOrigin?: string): RelyingParty {
  const url = new URL(publicUrl);
  const origins = [url.origin];
  if (
    url.hostname === "localhost" &&
    requestOrigin &&
    requestOrigin !== url.origin &&
    /^https?:\/\/localhost(:\d{1,5})?$/.test(requestOrigin)
  )
    origins.push(requestOrigin);
  return { rpID: url.hostname, origins };
}

/** The Origin header of a request, when it sent one. */
export function originOf(headers: { origin?: string | string[] }): string | undefined {
  return typeof headers.origin === "string" ? headers.origin : undefined;
}
