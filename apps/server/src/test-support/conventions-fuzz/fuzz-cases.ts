// The actors, the generated requests and the check of every answer for http/conventions.fuzz.test.ts.
import fc from "fast-check";
import { BODY_LIMIT_BYTES } from "../../app.js";
import type { ApiResponse, RequestOptions, TenantFixture } from "../test-app.js";
import type { JsonObject } from "./fuzz-values.js";
import { isPlainObject, printableAscii, queryArb, idArb } from "./fuzz-values.js";
import type { Payload } from "./fuzz-payloads.js";
import { writePayloadArb, deletePayloadArb, garbageAuthorizationArb } from "./fuzz-payloads.js";

export const TENANT_ACTORS = ["ownerA", "staffA", "ownerB", "staffB"] as const;
export const ACTORS = [...TENANT_ACTORS, "admin", "anonymous", "unattached", "garbage"] as const;
export type Actor = (typeof ACTORS)[number];
export type TenantLetter = "a" | "b";
export const tenantOfActor: Partial<Record<Actor, TenantLetter>> = {
  ownerA: "a",
  staffA: "a",
  ownerB: "b",
  staffB: "b",
};
/** Callers that cannot write anything, whatever the id or body. */
export const CANNOT_WRITE: readonly Actor[] = ["anonymous", "unattached", "garbage"];

export const OPERATIONS = ["list", "detail", "create", "update", "delete"] as const;
export type Operation = (typeof OPERATIONS)[number];
export const METHOD_OF: Record<Operation, string> = {
  list: "GET",
  detail: "GET",
  create: "POST",
  update: "PUT",
  delete: "DELETE",
};

export type FuzzCase = {
  resource: string;
  operation: Operation;
  actor: Actor;
  /** Authorization header of the "garbage" actor. */
  authorization: string | null;
  /** Member id as it appears in the path (already percent-encoded where meant to be). */
  id: string | null;
  /** "" or "?..." exactly as sent. */
  query: string;
  payload: Payload;
  requestId: string | null;
};

// ---- Requests ------------------------------------------------------------------------------

export type ResourceState = {
  path: string;
  templates: JsonObject[];
  lenientFields: readonly string[];
  ids: Record<TenantLetter, number[]>;
};

export function fuzzCaseArb(
  fixture: TenantFixture,
  resources: ResourceState[],
  forged: string[],
): fc.Arbitrary<FuzzCase> {
  const query = queryArb(fixture);
  const authorization = garbageAuthorizationArb(forged);
  return fc
    .tuple(fc.constantFrom(...resources), fc.constantFrom(...OPERATIONS), fc.constantFrom(...ACTORS))
    .chain(([resource, operation, actor]) => {
      const all = [...resource.ids.a, ...resource.ids.b];
      const absent = fc
        .oneof(
          fc.integer({ min: 1, max: 2_147_483_647 }),
          fc.constantFrom(2_147_483_648, 999_999_999_999_999),
        )
        .filter((n) => !all.includes(n));
      const pick = (ids: number[]) => (ids.length > 0 ? fc.oneof(fc.constantFrom(...ids), absent) : absent);
      let numbers = pick(all);
      if (operation === "delete" && !CANNOT_WRITE.includes(actor)) {
        const own = tenantOfActor[actor];
        // Tenant users: the other client's ids or absent ones; the admin: absent ones only.
        numbers = own ? pick(resource.ids[own === "a" ? "b" : "a"]) : absent;
      }
      const hasId = operation === "detail" || operation === "update" || operation === "delete";
      let payload: fc.Arbitrary<Payload> = fc.constant<Payload>({ kind: "none" });
      if (operation === "create" || operation === "update")
        payload = writePayloadArb(resource.templates, resource.lenientFields);
      else if (operation === "delete") payload = deletePayloadArb;
      return fc.record({
        resource: fc.constant(resource.path),
        operation: fc.constant(operation),
        actor: fc.constant(actor),
        authorization: actor === "garbage" ? authorization : fc.constant(null),
        id: hasId ? idArb(numbers) : fc.constant(null),
        query,
        payload,
        requestId: fc.option(printableAscii(80), { nil: null, freq: 8 }),
      });
    });
}

export function materialize(fuzzCase: FuzzCase): { method: string; path: string; options: RequestOptions } {
  const headers: Record<string, string> = {};
  if (fuzzCase.authorization !== null) headers.authorization = fuzzCase.authorization;
  if (fuzzCase.requestId !== null) headers["x-request-id"] = fuzzCase.requestId;
  const options: RequestOptions = { headers };
  const { payload } = fuzzCase;
  if (payload.kind === "text") {
    options.rawBody = payload.text;
    headers["content-type"] = payload.contentType;
  } else if (payload.kind === "oversize") {
    // A JSON array (never a valid body) of exactly BODY_LIMIT_BYTES + extraBytes bytes.
    options.rawBody = `["${"x".repeat(BODY_LIMIT_BYTES + payload.extraBytes - 4)}"]`;
    headers["content-type"] = payload.contentType;
  }
  const member = fuzzCase.id === null ? "" : `${fuzzCase.id}/`;
  return {
    method: METHOD_OF[fuzzCase.operation],
    path: `${fuzzCase.resource}${member}${fuzzCase.query}`,
    options,
  };
}

export function isDetailBody(body: unknown): boolean {
  return isPlainObject(body) && typeof body.detail === "string";
}

/** DRF's 400: {detail: "..."} or {field: ["message", ...], ...}. */
export function isDrfErrorBody(body: unknown): boolean {
  if (!isPlainObject(body) || Object.keys(body).length === 0) return false;
  if (isDetailBody(body)) return true;
  return Object.values(body).every(
    (messages) =>
      Array.isArray(messages) &&
      messages.length > 0 &&
      messages.every((message) => typeof message === "string"),
  );
}

/** Throws (for fast-check to report and shrink) when the answer breaks the conventions. */
export function checkResponse(fuzzCase: FuzzCase, method: string, path: string, response: ApiResponse): void {
  const shortPath = path.length > 300 ? `${path.slice(0, 300)}...` : path;
  const where = `${method} ${shortPath} as ${fuzzCase.actor} -> ${response.status}: ${response.text.slice(0, 500)}`;
  if (response.status >= 500) throw new Error(`server error: ${where}`);
  if (method !== "GET" && response.status < 300) throw new Error(`a malformed write was accepted: ${where}`);
  if (response.status === 400 && !isDrfErrorBody(response.body)) {
    throw new Error(`400 without a DRF error body: ${where}`);
  }
  // Every other client error says why in {detail}; 431 (headers too large) is Node's own, bodiless.
  if (response.status > 400 && response.status !== 431 && !isDetailBody(response.body)) {
    throw new Error(`${response.status} without {detail}: ${where}`);
  }
}
