import { notifications } from "@mantine/notifications";
import { ApiError, allMessages } from "./api-client";
import { clearSession } from "./session";

// The spec's HTTP error catalogue, applied once for every query and mutation (see App.tsx).
export const MALFORMED_REQUEST_MESSAGE =
  "Malformed request, may be missing or invalid parameters required for API call";
export const SERVER_ERROR_MESSAGE = "Server side error occurred";
export const NOT_FOUND_MESSAGE = "The requested record was not found";
export const FORBIDDEN_MESSAGE = "You do not have permission to do that";

export function handleApiError(error: unknown): void {
  if (!(error instanceof ApiError)) return;

  if (error.status === 401) {
    // Authentication failed: end the session. The navigation guard then sends a logged-in page to
    // login with a redirect back; public pages (login, register, passwordReset, payments) stay put.
    clearSession();
    return;
  }
  if (error.handledByCaller) return;

  if (error.status === 400) {
    const nonField = nonFieldErrors(error.body);
    // 400s with field errors belong to the form that sent them.
    if (nonField.length > 0) show(`api-400-${nonField.join("|")}`, MALFORMED_REQUEST_MESSAGE, nonField);
    return;
  }
  if (error.status === 403) {
    show("api-403", FORBIDDEN_MESSAGE, allMessages(error.body));
    return;
  }
  if (error.status === 404) {
    show("api-404", NOT_FOUND_MESSAGE, allMessages(error.body));
    return;
  }
  if (error.status >= 500) show("api-5xx", SERVER_ERROR_MESSAGE, allMessages(error.body));
}

function nonFieldErrors(body: unknown): string[] {
  if (typeof body !== "object" || body === null || !("non_field_errors" in body)) return [];
  return allMessages(body.non_field_errors);
}

// A fixed id per kind keeps a burst of failing requests from stacking identical notifications.
function show(id: string, title: string, details: readonly string[]): void {
  notifications.show({
    id,
    color: "red",
    title,
    message: details.length > 0 ? details.join(" ") : "Please try again.",
    autoClose: 8_000,
  });
}
