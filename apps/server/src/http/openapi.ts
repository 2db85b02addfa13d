import { wireSchemas } from "@cyclebill/domain";
import { z } from "zod";
import type { DocumentedRoute } from "./router.js";

type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = JsonSchema;

function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    target: "openapi-3.0",
    // A value read from a string or a number (ids, decimals) shows as the form it must take.
    override: (ctx) => {
      const wire = io === "input" ? wireSchemas.get(ctx.zodSchema) : undefined;
      if (!wire) return;
      for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as JsonSchema)[key];
      Object.assign(ctx.jsonSchema, wire);
    },
  }) as JsonSchema;
  delete json.$schema;
  return withTypedNullable(json);
}

/**
 * OpenAPI 3.0 only reads `nullable` beside a `type`. zod writes `{nullable, anyOf: [...]}` for a
 * nullable union: the flag moves into each member instead; without a type or members (any value)
 * it goes, since such a schema already admits null.
 */
function withTypedNullable(node: unknown): JsonSchema {
  const schema = node as JsonSchema;
  const fixed: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    fixed[key] = Array.isArray(value)
      ? value.map((item: unknown) => (isObject(item) ? withTypedNullable(item) : item))
      : isObject(value)
        ? withTypedNullable(value)
        : value;
  }
  // An empty member comes from z.undefined() (a key that may be left out), which JSON cannot carry;
  // left in, it would make the whole union accept anything.
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = fixed[key];
    if (!Array.isArray(members) || members.length < 2) continue;
    const kept = members.filter((member: unknown) => !isObject(member) || Object.keys(member).length > 0);
    const [only] = kept;
    if (kept.length === 1 && isObject(only)) {
      // One member left: use it directly.
      delete fixed[key];
      Object.assign(fixed, only);
    } else {
      fixed[key] = kept;
    }
  }
  // OpenAPI 3.0.3: nullable does not widen an enum, so null must be one of its values.
  if (fixed.nullable === true && Array.isArray(fixed.enum) && !fixed.enum.includes(null))
    fixed.enum = [...(fixed.enum as unknown[]), null];
  if (fixed.nullable !== true || "type" in fixed) return fixed;
  delete fixed.nullable;
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = fixed[key];
    if (Array.isArray(members)) fixed[key] = members.map((member: JsonSchema) => nullableMember(member));
  }
  return fixed;
}

function nullableMember(member: JsonSchema): JsonSchema {
  return withTypedNullable({ ...member, nullable: true });
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null;
}

const errorSchema: JsonSchema = {
  type: "object",
  description:
    "Django REST Framework style error: {detail} or {field: [messages], non_field_errors: [messages]}",
  additionalProperties: true,
};

/** One shared response per refusal; operations point at them. */
const errorResponses: Record<string, { name: string; description: string }> = {
  "400": { name: "BadRequest", description: "Invalid input" },
  "401": { name: "Unauthorized", description: "Not signed in" },
  "403": {
    name: "Forbidden",
    description: "Not allowed for this user (role, client, or second-factor enrolment pending)",
  },
  "404": { name: "NotFound", description: "Not found, or not this user's client" },
  "409": { name: "Conflict", description: "Refused in the record's current state (or another request's)" },
  "422": { name: "Unprocessable", description: "An idempotency key reused for a different request" },
  "429": { name: "TooManyRequests", description: "Throttled: try again later" },
};

function errorResponse(status: string): JsonSchema {
  const shared = errorResponses[status];
  if (!shared) throw new Error(`No shared response for ${status}.`);
  return { $ref: `#/components/responses/${shared.name}` };
}

/**
 * Refusals of a route: 400 for every route (input is parsed), 401/403 where a user must sign in (the
 * router refuses roles, other clients and a pending second factor), 404 where a record is named by
 * id or a tenant is resolved, 409 on every signed-in write (state and concurrency refusals), and what
 * the route declares beyond that (alsoAnswers).
 */
function errorStatuses(route: DocumentedRoute): string[] {
  const statuses = new Set<number>([400]);
  if (route.access !== "public") [401, 403, 404].forEach((status) => statuses.add(status));
  if (route.params) statuses.add(404);
  if (route.access !== "public" && route.method !== "GET") statuses.add(409);
  for (const status of route.alsoAnswers ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b).map(String);
}

function parametersOf(schema: z.ZodType | undefined, location: "query" | "path"): JsonSchema[] {
  if (!schema) return [];
  const json = toJsonSchema(schema, "input");
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, propertySchema]) => ({
    name,
    in: location,
    required: location === "path" || required.has(name),
    schema: propertySchema,
  }));
}

/** Files (PDF, CSV, zip) are binary; JSON answers show the route's response schema. */
function successSchema(route: DocumentedRoute): JsonSchema {
  if (route.produces) return { type: "string", format: "binary" };
  if (!route.response) throw new Error(`Route ${route.name} answers JSON but declares no response schema.`);
  return toJsonSchema(route.response, "output");
}

/** The OpenAPI 3 document, generated from the same zod schemas the routes parse with. */
export function buildOpenApiDocument(routes: readonly DocumentedRoute[]): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = route.url.replace(/:([A-Za-z_]+)/g, "{$1}");
    const responses: Record<string, JsonSchema> = {
      [String(route.successStatus)]: {
        description: "Success",
        ...(route.successStatus === 204
          ? {}
          : {
              content: {
                [route.produces ?? "application/json"]: { schema: successSchema(route) },
              },
            }),
      },
    };
    for (const status of errorStatuses(route)) responses[status] = errorResponse(status);
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.name,
      summary: route.summary,
      tags: route.tags,
      ...(route.access === "public" ? { security: [] } : {}),
      parameters: [...parametersOf(route.params, "path"), ...parametersOf(route.query, "query")],
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: toJsonSchema(route.body, "input") } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: "3.0.3",
    info: {
      title: "Cyclebill API",
      version: "1.0.0",
      description:
        "Multi-tenant billing and receivables. Amounts are decimal strings with 2 places, rates with 5. " +
        "Lists take client_id, limit, offset or page, ordering (leading - for descending) and return {count, results}.",
    },
    servers: [{ url: "/" }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      responses: Object.fromEntries(
        Object.values(errorResponses).map(({ name, description }) => [
          name,
          { description, content: { "application/json": { schema: errorSchema } } },
        ]),
      ),
    },
    security: [{ bearer: [] }],
    paths,
  };
}
