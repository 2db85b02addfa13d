import type { RunningServer } from "./server.js";

// Fixtures through the API, as a user would make them, so browser tests start from known data.

export type ApiSession = {
  /** Calls /api/{path} with the session's token; throws unless the status is 2xx. */
  request: <T>(method: string, path: string, body?: unknown) => Promise<T>;
  token: string;
};

export async function apiLogIn(
  server: RunningServer,
  username: string,
  password: string,
): Promise<ApiSession> {
  const response = await fetch(`${server.baseUrl}/api/auth-jwt/`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok)
    throw new Error(`Login as ${username} failed: ${response.status} ${await response.text()}`);
  const { token } = (await response.json()) as { token: string };

  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { Accept: "application/json", Authorization: `Bearer ${token}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const answer = await fetch(`${server.baseUrl}/api/${path.replace(/^\//, "")}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${text}`);
    return (text === "" ? undefined : JSON.parse(text)) as T;
  };
  return { request, token };
}

export type ClientFixture = { id: number; client_no: number; client_name: string } & Record<string, unknown>;

export function createClient(api: ApiSession, clientName: string): Promise<ClientFixture> {
  return api.request<ClientFixture>("POST", "clients/", { client_name: clientName });
}

export type CodeFixture = {
  id: number;
  code: number;
  code_name: string;
  description: string;
  code_type: string;
  taxable: boolean;
};

export function createCode(
  api: ApiSession,
  clientId: number,
  code: { code: number; description: string; code_type: string; taxable?: boolean },
): Promise<CodeFixture> {
  return api.request<CodeFixture>("POST", `codes/?client_id=${clientId}`, code);
}
