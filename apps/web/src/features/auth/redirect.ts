// Where login sends the user afterwards: the `redirect` query parameter (path + query) or /home.

export const DEFAULT_AFTER_LOGIN = "/home";

/** Pages that make no sense to return to after logging in. */
const NO_RETURN_PATHS = new Set([
  "/",
  "/login",
  "/logout",
  "/register",
  "/register/confirm",
  "/forgotPassword",
  "/passwordReset",
]);

/** Accepts only same-origin absolute paths, so a crafted link cannot send a fresh login elsewhere. */
export function safeRedirectTarget(raw: string | null): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return DEFAULT_AFTER_LOGIN;
  const pathname = raw.split(/[?#]/, 1)[0] ?? "";
  return NO_RETURN_PATHS.has(pathname) ? DEFAULT_AFTER_LOGIN : raw;
}

/** The login address that returns to `target` (path + query) afterwards. */
export function loginPathFor(target: string): string {
  return `/?${new URLSearchParams({ redirect: safeRedirectTarget(target) }).toString()}`;
}
