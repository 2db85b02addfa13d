export type ErrorBody = Record<string, unknown>;

/** An error that becomes an HTTP response in Django REST Framework's shape. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(typeof body.detail === "string" ? body.detail : `HTTP ${status}`);
  }
}

export const NOT_FOUND_DETAIL = "Not found.";
export const SERVER_ERROR_DETAIL = "Server side error occurred";

export function notFound(): HttpError {
  return new HttpError(404, { detail: NOT_FOUND_DETAIL });
}

export function unauthorized(detail = "Authentication credentials were not provided."): HttpError {
  return new HttpError(401, { detail });
}

export function forbidden(detail = "You do not have permission to perform this action."): HttpError {
  return new HttpError(403, { detail });
}

/** 400 with `{field: [msg]}`; use the key non_field_errors for errors about the whole request. */
export function badRequest(errors: Record<string, string[]>): HttpError {
  return new HttpError(400, errors);
}

export function fieldError(field: string, message: string): HttpError {
  return badRequest({ [field]: [message] });
}

export function nonFieldError(message: string): HttpError {
  return badRequest({ non_field_errors: [message] });
}

/** Groups zod issues (or issues shaped like them) by their top-level field, as DRF reports serializer errors. */
export function zodIssuesToDrf(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string[]> {
  // A Map, not an object literal: a field named "constructor" or "__proto__" (from a fuzzed query
  // string) would read the prototype's property instead of a message list.
  const errors = new Map<string, string[]>();
  for (const issue of issues) {
    const [head, ...rest] = issue.path;
    const field = head === undefined ? "non_field_errors" : String(head);
    const message =
      rest.length > 0 ? `${rest.map(String).join(".")}: ${ownText(issue.message, rest)}` : issue.message;
    const messages = errors.get(field) ?? [];
    messages.push(message);
    errors.set(field, messages);
  }
  return Object.fromEntries(errors);
}

/** A message that already names its field ("serviceDate: ...") is not prefixed with the name twice. */
function ownText(message: string, path: readonly PropertyKey[]): string {
  const named = `${String(path[path.length - 1])}: `;
  return message.startsWith(named) ? message.slice(named.length) : message;
}
