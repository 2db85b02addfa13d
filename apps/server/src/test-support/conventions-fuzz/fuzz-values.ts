// Generators of malformed values (texts, integers, ids, query strings, broken bodies) for
// http/conventions.fuzz.test.ts.
import fc from "fast-check";
import type { TenantFixture } from "../test-app.js";

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True when some JSON reader could take the text for an object (fastify strips a BOM). */
export function parsesToObject(text: string): boolean {
  try {
    return isPlainObject(JSON.parse(text.replace(/^\uFEFF/, "")));
  } catch {
    return false;
  }
}

/** Would integerParam read this (after path decoding) as a whole number? */
export function readsAsInteger(value: string): boolean {
  return /^-?\d+$/.test(value.trim());
}

/** Lone surrogates would make encodeURIComponent throw; the server gets U+FFFD instead. */
export function wellFormed(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

export const encode = (value: string) => encodeURIComponent(wellFormed(value));

// ---- Strings -------------------------------------------------------------------------------

export const printableAscii = (maxLength: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    maxLength,
  });

export const textArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }).map(wellFormed) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "\u00a0",
      "\u0000",
      "null",
      "undefined",
      "NaN",
      "Infinity",
      "true",
      "[]",
      "{}",
      "' OR 1=1 --",
      "code; drop table codes",
      "${7*7}",
      "<script>alert(1)</script>",
      "\u202e\u0645\u0631\u062d\u0628\u0627",
      "\ud83d\udca9\ud83d\udca9",
      "Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334",
    ),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 1000, maxLength: 2500 }) },
);

// ---- Query strings -------------------------------------------------------------------------

export const integerishValues: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "-1",
    "0",
    "1",
    "2",
    "100",
    "5000",
    "5001",
    "-0",
    "1.5",
    "1e3",
    "0x10",
    "+1",
    " 3 ",
    "99999999999999999999",
    "9007199254740993",
    "999999999999999",
    "NaN",
    "Infinity",
    "abc",
    "",
    "\u0661\u0662",
    "\uff11",
  ),
  fc.integer().map(String),
  fc.double().map(String),
  textArb,
);

export function queryArb(fixture: TenantFixture): fc.Arbitrary<string> {
  const clientIds = fc.oneof(
    fc.constantFrom(String(fixture.a.clientId), String(fixture.b.clientId), "999999999", "0", "-1"),
    integerishValues,
  );
  const orderingValues = fc.oneof(
    fc.constantFrom(
      "code",
      "-code",
      "id",
      "-id,code",
      "route_name",
      "-route_name",
      "nope",
      "-",
      ",",
      ",,,",
      "--code",
      " code ",
      "code,code",
      "-nope,code",
      "CODE",
      "code desc",
      "client_id",
      "clientId",
      "__proto__",
      "constructor",
      "toString",
      "x".repeat(201),
    ),
    fc
      .array(
        fc.constantFrom("code", "-code", "id", "-id", "route_name", "code_type", "taxable", "nope", ""),
        {
          maxLength: 6,
        },
      )
      .map((fields) => fields.join(",")),
    textArb,
  );
  const pair: fc.Arbitrary<[string, string]> = fc.oneof(
    fc.tuple(fc.constantFrom("limit", "offset", "page"), integerishValues),
    fc.tuple(fc.constant("client_id"), clientIds),
    fc.tuple(fc.constant("ordering"), orderingValues),
    fc.tuple(
      fc.constant("code_type"),
      fc.oneof(fc.constantFrom("charge", "payment", "nope", "", "CHARGE"), textArb),
    ),
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          "search",
          "id",
          "client",
          "format",
          "page_size",
          "__proto__",
          "constructor",
          "limit[]",
          "a[b]",
          "",
        ),
        textArb,
      ),
      textArb,
    ),
  );
  // Sent as written: bad percent escapes, keys without values, empty pairs.
  const rawFragment = fc.constantFrom(
    "&&",
    "=",
    "limit",
    "limit=",
    "limit=%",
    "limit=%zz",
    "ordering=%E0%A4%A",
    "client_id=%00",
    "offset=1%2",
    "page=+1",
    "client_id=1&client_id=2",
    "limit=1&limit=2&limit=3",
    "__proto__[limit]=1",
    "%=%",
  );
  const malformed = fc
    .tuple(fc.array(pair, { minLength: 1, maxLength: 5 }), fc.option(rawFragment, { nil: null, freq: 4 }))
    .map(([pairs, raw]) => {
      const parts = pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`);
      if (raw !== null) parts.push(raw);
      return `?${parts.join("&")}`;
    });
  // Plain and well-formed queries too, so that requests get past query parsing to the tenant
  // checks and the record lookup (e.g. another client's id answers 404).
  const wellFormed = fc.constantFrom(
    "?limit=10",
    "?limit=1&offset=1",
    "?page=2&limit=1",
    "?ordering=-id",
    "?page=999999999999999&limit=5000",
    `?client_id=${fixture.a.clientId}`,
    `?client_id=${fixture.b.clientId}`,
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant("") },
    { weight: 1, arbitrary: wellFormed },
    { weight: 6, arbitrary: malformed },
  );
}

// ---- Path ids -------------------------------------------------------------------------------

/** Ids that are not whole numbers >= 1 in any reading, encoded for the path unless meant raw. */
export const MALFORMED_IDS = [
  "0",
  "-1",
  "-0",
  "99999999999999999999",
  "9007199254740993",
  "1".repeat(16),
  "9".repeat(300),
  "1e3",
  "0x1F",
  "1.5",
  "NaN",
  "Infinity",
  "-Infinity",
  "null",
  "undefined",
  "true",
  "%5B1%5D",
  "%7B%7D",
  "%00",
  "%",
  "%zz",
  "%E0%A4%A",
  "%FF",
  "%20",
  "..",
  ".",
  "%2e%2e",
  encode("\u0661\u0662"),
  encode("\uff11"),
  encode("' OR 1=1 --"),
];

export function idArb(numbers: fc.Arbitrary<number>): fc.Arbitrary<string> {
  // Variants of an allowed number; some read as that number, the rest as garbage.
  const numeric = fc
    .tuple(
      numbers,
      fc.constantFrom<(n: number) => string>(
        (n) => String(n),
        (n) => String(n),
        (n) => String(n),
        (n) => String(n),
        (n) => `000${n}`,
        (n) => `%20${n}%20`,
        (n) => [...String(n)].map((digit) => `%${digit.charCodeAt(0).toString(16)}`).join(""),
        (n) => `${n}.0`,
        (n) => `+${n}`,
        (n) => `${n}abc`,
        (n) => `${n}e0`,
        (n) => `-${n}`,
        (n) => `${n}%00`,
        (n) => `${n},${n}`,
        (n) => `${n}%2F`,
      ),
    )
    .map(([n, form]) => form(n));
  return fc.oneof(
    { weight: 4, arbitrary: numeric },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_IDS) },
    { weight: 2, arbitrary: textArb.filter((text) => !readsAsInteger(text)).map(encode) },
  );
}

// ---- Bodies --------------------------------------------------------------------------------

/** A value of another JSON structure than the valid one: never accepted in its place. */
export function structurallyWrong(valid: unknown): fc.Arbitrary<unknown> {
  if (typeof valid === "object" && valid !== null) {
    return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean());
  }
  return fc.oneof(
    fc.constant({}),
    fc.constant([]),
    fc.constant([valid]),
    fc.constant({ value: valid }),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  );
}

/** Merely odd values for the other fields: wrong scalar types, null, out of range, too long. */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e21, 2 ** 53, "", "   ", "1", "-5", "x".repeat(61)),
  fc.integer(),
  fc.double(),
  textArb,
  fc.jsonValue({ maxDepth: 2 }),
);

export type BrokenBody = { body: JsonObject; field: string; template: JsonObject };

export function brokenBodyArb(
  templates: JsonObject[],
  lenientFields: readonly string[],
): fc.Arbitrary<BrokenBody> {
  return fc
    .constantFrom(...templates)
    .chain((template) => {
      const keys = Object.keys(template);
      // Fields that accept any value by design (e.g. a group stop) cannot make a body invalid.
      const breakable = keys.filter((key) => !lenientFields.includes(key));
      return fc.tuple(
        fc.constant(template),
        fc
          .constantFrom(...breakable)
          .chain((field) => fc.tuple(fc.constant(field), structurallyWrong(template[field]))),
        fc.array(
          fc.tuple(
            fc.constantFrom(...keys),
            fc.oneof(
              fc.constant<{ drop: true }>({ drop: true }),
              oddValue.map((value) => ({ value })),
            ),
          ),
          { maxLength: keys.length },
        ),
        fc.oneof(
          fc.constant<JsonObject>({}),
          fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
          fc.constantFrom<JsonObject>(
            { client_id: 1 },
            { id: 1 },
            { client: 2 },
            { nested: { a: { b: [1, { c: null }] } } },
          ),
        ),
      );
    })
    .map(([template, [field, wrong], changes, extras]) => {
      const body: JsonObject = { ...extras, ...template };
      for (const [key, change] of changes) {
        if ("drop" in change) delete body[key];
        else body[key] = change.value;
      }
      // Last, so nothing above can repair it.
      body[field] = wrong;
      return { body, field, template };
    });
}
