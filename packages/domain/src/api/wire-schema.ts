import { z } from "zod";

/**
 * How a value travels on the wire when the zod schema cannot say it: integerParam and the decimal
 * inputs accept a string or a number and transform it, which JSON Schema would render as "any string
 * or number". The OpenAPI document shows the registered schema instead (what the server accepts,
 * written once beside the rule), so an outside client generates values the server takes.
 */
export type WireSchema = {
  type: "integer" | "string";
  minimum?: number;
  maximum?: number;
  pattern?: string;
  enum?: readonly (string | number)[];
  format?: string;
  description?: string;
};

export const wireSchemas = z.registry<WireSchema>();

/** A check in front of a schema (required, not empty) is documented as that schema's wire form. */
export function documentedAs<S extends z.ZodType>(inner: z.ZodType, schema: S): S {
  const wire = wireSchemas.get(inner);
  return wire ? onTheWire(schema, wire) : schema;
}

/** Registers the wire form of a schema and returns the schema, unchanged. */
export function onTheWire<S extends z.ZodType>(schema: S, wire: WireSchema): S {
  wireSchemas.add(schema, wire);
  return schema;
}
