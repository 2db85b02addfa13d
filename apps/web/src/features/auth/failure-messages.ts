import { ApiError, allMessages, describeApiError } from "../../api/api-client";

/** The server's own wording, without DRF's field names ("token: ...") that mean nothing to a user. */
export function failureMessages(error: unknown): string[] {
  const messages = error instanceof ApiError ? allMessages(error.body) : [];
  return messages.length > 0 ? messages : [describeApiError(error)];
}
