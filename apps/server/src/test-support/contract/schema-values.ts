import fc from "fast-check";

/** The subset of OpenAPI 3.0 schema objects the generated document uses. */
export type Schema = {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  /** OpenAPI 3.0: true makes minimum exclusive. */
  exclusiveMinimum?: boolean;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
};

/** Hints from the world under test: real ids to aim at, so requests reach records, not only 404s. */
export type ValueHints = { clientIds: number[] };

const day = fc
  .date({ min: new Date("2024-01-01T00:00:00Z"), max: new Date("2027-12-31T00:00:00Z"), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

function integerArb(schema: Schema, name: string, hints: ValueHints): fc.Arbitrary<number> {
  const min = (schema.minimum ?? -1000) + (schema.exclusiveMinimum === true ? 1 : 0);
  const max = schema.maximum ?? 1_000_000;
  const near = fc.integer({ min, max: Math.min(max, min + 40) });
  if (name === "client_id" || name === "client") {
    const known = hints.clientIds.filter((id) => id >= min && id <= max);
    if (known.length > 0) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, near);
  }
  return fc.oneof({ weight: 4, arbitrary: near }, fc.integer({ min, max }));
}

function stringArb(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 24, Math.max(minLength, 24));
  const fits = (value: string) =>
    value.length >= minLength && (schema.maxLength === undefined || value.length <= schema.maxLength);
  if (schema.format === "date") return day;
  if (schema.format === "date-time") return day.map((date) => `${date}T12:00:00.000Z`);
  if (schema.format === "email") return fc.emailAddress().filter(fits);
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  return fc.string({ minLength, maxLength });
}

/** A value the schema accepts (valid by the document), with small, realistic sizes. */
export function valueOf(schema: Schema, hints: ValueHints, name = ""): fc.Arbitrary<unknown> {
  const plain = plainValueOf(schema, hints, name);
  return schema.nullable ? fc.oneof({ weight: 4, arbitrary: plain }, fc.constant(null)) : plain;
}

function plainValueOf(schema: Schema, hints: ValueHints, name: string): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const members = schema.anyOf ?? schema.oneOf;
  if (members) return fc.oneof(...members.map((member) => valueOf(member, hints, name)));
  switch (schema.type) {
    case "integer":
      return integerArb(schema, name, hints);
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "string":
      return stringArb(schema);
    case "array":
      return fc.array(valueOf(schema.items ?? {}, hints, name), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case "object":
      return objectOf(schema, hints);
    default:
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
  }
}

/** Every required property, and each optional one half the time. */
export function objectOf(schema: Schema, hints: ValueHints): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) record[key] = valueOf(property, hints, key);
  return fc.record(record, { requiredKeys: [...required].filter((key) => key in properties) });
}

/** A query or path value: one value (never a list), as text. */
export function parameterValueOf(schema: Schema, hints: ValueHints, name: string): fc.Arbitrary<string> {
  const members = (schema.anyOf ?? schema.oneOf)?.filter((member) => member.type !== "array");
  const single = members && members.length > 0 ? { ...schema, anyOf: members, oneOf: undefined } : schema;
  return valueOf({ ...single, nullable: false }, hints, name).map((value) => String(value));
}
