import { z } from "zod";
import type { DocumentedRoute } from "./router.js";

type JsonSchema = Record<string, unknown>;

function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "openapi-3.0" }) as JsonSchema;
  delete json.$schema;
  return json;
}

const errorSchema: JsonSchema = {
  type: "object",
  description:
    "Django REST Framework style error: {detail} or {field: [messages], non_field_errors: [messages]}",
  additionalProperties: true,
};

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

/** The OpenAPI 3 document, generated from the same zod schemas the routes parse with. */
export function buildOpenApiDocument(routes: readonly DocumentedRoute[]): JsonSchema {
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
                [route.produces ?? "application/json"]: {
                  schema: route.response ? toJsonSchema(route.response, "output") : { type: "object" },
                },
              },
            }),
      },
      "400": { description: "Invalid input", content: { "application/json": { schema: errorSchema } } },
    };
    if (route.access !== "public") {
      responses["401"] = {
        description: "Not signed in",
        content: { "application/json": { schema: errorSchema } },
      };
      responses["404"] = {
        description: "Not found, or not this user's client",
        content: { "application/json": { schema: errorSchema } },
      };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = {
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
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    security: [{ bearer: [] }],
    paths,
  };
}
