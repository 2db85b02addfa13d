import type { IncomingMessage, ServerResponse } from "node:http";

// The little HTTP the sandbox needs: bodies with a size limit, form fields, plain and JSON answers.

const MAX_BODY_BYTES = 64 * 1024;

/** The body, or null past the size limit. */
export async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Form fields, the first value of a repeated name winning. */
export function formFields(body: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body)) if (!fields.has(name)) fields.set(name, value);
  return fields;
}

export function send(
  response: ServerResponse,
  status: number,
  body: string,
  type = "text/plain; charset=utf-8",
): void {
  response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  response.end(body);
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, JSON.stringify(value), "application/json");
}
