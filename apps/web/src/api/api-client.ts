// Typed fetch wrapper for the Cyclebill JSON API served under /api/.

export const API_BASE = "/api";
export const TOKEN_STORAGE_KEY = "cyclebill.token";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

type QueryScalar = string | number | boolean;
export type QueryValue = QueryScalar | readonly QueryScalar[] | null | undefined;
export type QueryParams = Record<string, QueryValue>;

/**
 * Statuses the caller handles itself (shows its own message), so the app-wide handler stays quiet
 * about them; "all" silences it for every status. A 401 always ends the session regardless.
 */
export type HandledStatuses = readonly number[] | "all";

export type ApiFetchOptions = {
  method?: HttpMethod;
  query?: QueryParams;
  /** Serialised as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  handles?: HandledStatuses;
  /** Extra request headers (e.g. Idempotency-Key on a payment). */
  headers?: Record<string, string>;
};

const FALLBACK_MESSAGE = "An unexpected error occurred";

/** A non-2xx response; `body` is the parsed JSON (or raw text when the server sent something else). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  /** True when the request declared (via `handles`) that its caller reports this status itself. */
  readonly handledByCaller: boolean;

  constructor(status: number, body: unknown, handledByCaller = false) {
    super(messageFromBody(body) ?? `Request failed with status ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
    this.handledByCaller = handledByCaller;
  }
}

/** The session's token: session storage (this tab, until the browser closes) or, remembered, local storage. */
export function readToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_STORAGE_KEY) ?? localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (privacy modes, sandboxed frames); treat as logged out.
    return null;
  }
}

export function buildApiUrl(path: string, query?: QueryParams): string {
  const relative = path.startsWith("/") ? path : `/${path}`;
  const url = relative.startsWith(`${API_BASE}/`) ? relative : `${API_BASE}${relative}`;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    const values: readonly QueryScalar[] = Array.isArray(value) ? value : [value as QueryScalar];
    for (const item of values) search.append(key, String(item));
  }
  const qs = search.toString();
  return qs ? `${url}?${qs}` : url;
}

/** Sends a request with the session's token; a body goes as JSON. */
function send(
  path: string,
  options: Pick<ApiFetchOptions, "method" | "query" | "body" | "signal"> & {
    headers: Record<string, string>;
  },
): Promise<Response> {
  const { body } = options;
  const headers = { ...options.headers };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return fetch(buildApiUrl(path, options.query), {
    method: options.method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: options.signal,
  });
}

export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const { method = "GET", query, body, signal, handles = [] } = options;
  const response = await send(path, {
    method,
    query,
    body,
    signal,
    headers: { ...options.headers, Accept: "application/json" },
  });

  const parsed = await parseBody(response);
  if (!response.ok) {
    const handled = handles === "all" || handles.includes(response.status);
    throw new ApiError(response.status, parsed, handled);
  }
  // 204 and other empty bodies come back as undefined; callers type those as void.
  return parsed as T;
}

export type DownloadedFile = { blob: Blob; filename: string };

/**
 * GET a file (PDF, CSV, zip) with the session's token. The file name is the server's, from
 * Content-Disposition; `fallbackName` is used only when the server names none.
 */
export async function apiDownload(
  path: string,
  options: Pick<ApiFetchOptions, "query" | "signal" | "handles"> & {
    fallbackName: string;
    /** A POST that answers with a file (e.g. combined statements) sends its body as JSON. */
    method?: "GET" | "POST";
    body?: unknown;
  },
): Promise<DownloadedFile> {
  const { query, signal, handles = [], fallbackName, method = "GET", body } = options;
  const response = await send(path, { method, query, body, signal, headers: {} });
  if (!response.ok) {
    const parsed = await parseBody(response);
    const handled = handles === "all" || handles.includes(response.status);
    throw new ApiError(response.status, parsed, handled);
  }
  const filename = filenameFromDisposition(response.headers.get("Content-Disposition")) ?? fallbackName;
  return { blob: await response.blob(), filename };
}

/** The file name in a Content-Disposition header, preferring the UTF-8 form (RFC 6266 / 5987). */
export function filenameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall through to the plain form.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header);
  if (quoted?.[1]) return quoted[1].replace(/\\(.)/g, "$1");
  const bare = /filename\s*=\s*([^;\s]+)/.exec(header);
  return bare?.[1];
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  const contentType = response.headers.get("Content-Type") ?? "";
  if (!contentType.includes("json")) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Every message in a DRF error body, in order, for "Details" lists. Field messages keep no field prefix. */
export function allMessages(body: unknown): string[] {
  const messages: string[] = [];
  const collect = (value: unknown) => {
    if (typeof value === "string") {
      if (value.trim() !== "") messages.push(value);
    } else if (Array.isArray(value)) {
      value.forEach(collect);
    } else if (isRecord(value)) {
      Object.values(value).forEach(collect);
    }
  };
  collect(body);
  return messages;
}

/** The first message a user can act on, for notifications and form alerts. */
export function describeApiError(error: unknown): string {
  if (error instanceof ApiError) return messageFromBody(error.body) ?? FALLBACK_MESSAGE;
  return FALLBACK_MESSAGE;
}

// Bodies follow Django REST Framework: {detail}, {non_field_errors: [...]}, or {field: [...]}.
function messageFromBody(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const detail = firstMessage(body.detail);
  if (detail) return detail;
  const nonField = firstMessage(body.non_field_errors);
  if (nonField) return nonField;
  for (const [field, value] of Object.entries(body)) {
    if (field === "detail" || field === "non_field_errors") continue;
    const message = firstMessage(value);
    if (message) return `${field}: ${message}`;
  }
  return undefined;
}

// Field errors may be a string, a list of strings, or nested objects/lists for nested serializers.
function firstMessage(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() === "" ? undefined : value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const message = firstMessage(item);
      if (message) return message;
    }
    return undefined;
  }
  if (isRecord(value)) {
    for (const nested of Object.values(value)) {
      const message = firstMessage(nested);
      if (message) return message;
    }
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
