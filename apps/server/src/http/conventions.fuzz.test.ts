import { Buffer } from "node:buffer";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES } from "../app.js";
import { signAccessToken } from "../modules/auth/access-token.js";
import { snapshotTables } from "../test-support/table-snapshot.js";
import { tenantResourceCases } from "../test-support/tenant-resources.js";
import {
  createTenantFixture,
  startTestApp,
  TEST_JWT_SECRET,
  type ApiClient,
  type ApiResponse,
  type RequestOptions,
  type TenantFixture,
  type TestApp,
} from "../test-support/test-app.js";

/*
 * "A 1,000-request fuzz test of malformed bodies and query strings against the
 * list/detail/create/update/delete conventions yields no 5xx and no changed rows."
 *
 * Every generated request is malformed or unauthorised, never a valid write, so the database
 * must be exactly as before afterwards. How each write is kept from succeeding:
 *  - POST and PUT: the body is always invalid for the resource, whoever sends it and whatever
 *    the content type (fastify parses application/json in any letter case and with any
 *    charset, strips a BOM and keeps the last of duplicate keys; other types answer 415 today,
 *    but get the same texts in case one is ever parsed). Every body text, read by any of
 *    those rules, is either no JSON at all, JSON that is not an object (input schemas are
 *    objects), or an object in which at least one field of a valid body holds a value of the
 *    wrong JSON structure (an object or array where the valid body has a scalar, a scalar
 *    where it has an object). Extra, missing and other wrongly typed
 *    fields are only added on top of that break. Body parsing precedes tenant resolution and
 *    the write, so such a request ends in 400/401/413/415 before anything is written.
 *  - DELETE has no body, so the id carries the guarantee: a tenant user only gets ids that do
 *    not exist in their own client (the other client's ids, absent ids, malformed ids); the
 *    admin, who may name any client with client_id, only gets absent or malformed ids; callers
 *    who cannot write at all (anonymous, forged token, user of no client) get any id. Numeric
 *    forms ("0007", " 7 ", "%37") are only made from ids allowed for that caller, and random
 *    strings that read as an integer are filtered out.
 *  - GET never writes, so it gets everything, including existing ids and valid paging.
 * As a net under that reasoning, a write answered 2xx fails the property at once (and
 * shrinks), and the table snapshot catches anything else.
 */

/** FUZZ_LONG=1: at least 10,000 malformed requests per resource. */
const LONG = process.env.FUZZ_LONG === "1";
const REQUESTS = LONG ? 10_000 * tenantResourceCases.length : 1000;

const LONG_TIMEOUT = LONG ? 4 * 3_600_000 : 120_000;

const TENANT_ACTORS = ["ownerA", "staffA", "ownerB", "staffB"] as const;
const ACTORS = [...TENANT_ACTORS, "admin", "anonymous", "unattached", "garbage"] as const;
type Actor = (typeof ACTORS)[number];
type TenantLetter = "a" | "b";
const tenantOfActor: Partial<Record<Actor, TenantLetter>> = {
  ownerA: "a",
  staffA: "a",
  ownerB: "b",
  staffB: "b",
};
/** Callers that cannot write anything, whatever the id or body. */
const CANNOT_WRITE: readonly Actor[] = ["anonymous", "unattached", "garbage"];

const OPERATIONS = ["list", "detail", "create", "update", "delete"] as const;
type Operation = (typeof OPERATIONS)[number];
const METHOD_OF: Record<Operation, string> = {
  list: "GET",
  detail: "GET",
  create: "POST",
  update: "PUT",
  delete: "DELETE",
};

type Payload =
  | { kind: "none" }
  | { kind: "text"; text: string; contentType: string }
  /** Materialised only when sent, so a shrunk counterexample does not print a megabyte. */
  | { kind: "oversize"; extraBytes: number; contentType: string };

type FuzzCase = {
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

type JsonObject = Record<string, unknown>;

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True when some JSON reader could take the text for an object (fastify strips a BOM). */
function parsesToObject(text: string): boolean {
  try {
    return isPlainObject(JSON.parse(text.replace(/^\uFEFF/, "")));
  } catch {
    return false;
  }
}

/** Would integerParam read this (after path decoding) as a whole number? */
function readsAsInteger(value: string): boolean {
  return /^-?\d+$/.test(value.trim());
}

/** Lone surrogates would make encodeURIComponent throw; the server gets U+FFFD instead. */
function wellFormed(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

const encode = (value: string) => encodeURIComponent(wellFormed(value));

// ---- Strings -------------------------------------------------------------------------------

const printableAscii = (maxLength: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    maxLength,
  });

const textArb: fc.Arbitrary<string> = fc.oneof(
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

const integerishValues: fc.Arbitrary<string> = fc.oneof(
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

function queryArb(fixture: TenantFixture): fc.Arbitrary<string> {
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
const MALFORMED_IDS = [
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

function idArb(numbers: fc.Arbitrary<number>): fc.Arbitrary<string> {
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
function structurallyWrong(valid: unknown): fc.Arbitrary<unknown> {
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
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e21, 2 ** 53, "", "   ", "1", "-5", "x".repeat(61)),
  fc.integer(),
  fc.double(),
  textArb,
  fc.jsonValue({ maxDepth: 2 }),
);

type BrokenBody = { body: JsonObject; field: string; template: JsonObject };

function brokenBodyArb(templates: JsonObject[], lenientFields: readonly string[]): fc.Arbitrary<BrokenBody> {
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

const MALFORMED_JSON = [
  "",
  "   ",
  "\n",
  "\uFEFF",
  "{",
  "}",
  "[",
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a" 1}',
  "{}}",
  "[1,2",
  "NaN",
  "undefined",
  "nul",
  "tru",
  '"unterminated',
  "\u0000",
  "0x10",
  '{"a":"\\ud800"',
  "<xml/>",
  "a=1&b=2",
];

const CONTENT_TYPES = [
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/json; charset=latin1",
  "application/json;;",
  "text/plain",
  "text/html",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "application/xml",
  "application/vnd.api+json",
  "application/octet-stream",
  "*/*",
  "application/json, text/plain",
  "",
];

const contentTypeArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant("application/json") },
  { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
);

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

/** Bodies for POST and PUT; see the top of the file for why none can be a valid write. */
function writePayloadArb(templates: JsonObject[], lenientFields: readonly string[]): fc.Arbitrary<Payload> {
  const broken = brokenBodyArb(templates, lenientFields);
  const brokenText = broken.map(({ body }) => JSON.stringify(body));
  const nonObjectJson: fc.Arbitrary<unknown> = fc.oneof(
    fc.constantFrom(null, true, false, 0, -1, 1e308, "", "x", []),
    fc.double(),
    fc.string({ maxLength: 20 }),
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
    fc.constantFrom(...templates).map((template) => [template]),
    fc.constantFrom(...templates).map((template) => Object.values(template)),
  );
  const randomMerged = fc
    .tuple(fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.anything({ maxDepth: 3 })), broken)
    .map(([value, { body }]) =>
      isPlainObject(value) ? JSON.stringify({ ...value, ...body }) : safeStringify(value),
    )
    .filter((text) => !parsesToObject(text) || text.length > 2);
  const text: fc.Arbitrary<string> = fc.oneof(
    { weight: 8, arbitrary: brokenText },
    { weight: 1, arbitrary: brokenText.map((body) => `\uFEFF${body}`) },
    { weight: 1, arbitrary: brokenText.map((body) => ` \n\t${body}\n `) },
    {
      weight: 1,
      // The valid value first, the broken one last: JSON.parse keeps the last.
      arbitrary: broken.map(
        ({ body, field, template }) =>
          `{${JSON.stringify(field)}:${JSON.stringify(template[field])},${JSON.stringify(body).slice(1)}`,
      ),
    },
    { weight: 1, arbitrary: brokenText.map((body) => `{"__proto__":{"isAdmin":true},${body.slice(1)}`) },
    {
      weight: 1,
      arbitrary: brokenText.map((body) => `{"constructor":{"prototype":{"x":1}},${body.slice(1)}`),
    },
    {
      weight: 1,
      // A proper prefix of an object's text never parses.
      arbitrary: fc.tuple(brokenText, fc.nat()).map(([body, cut]) => body.slice(0, cut % body.length)),
    },
    { weight: 3, arbitrary: nonObjectJson.map(safeStringify) },
    { weight: 3, arbitrary: randomMerged },
    {
      weight: 3,
      arbitrary: fc
        .oneof(fc.constantFrom(...MALFORMED_JSON), textArb)
        .filter((body) => !parsesToObject(body)),
    },
  );
  return fc.oneof(
    {
      weight: 79,
      arbitrary: fc.record({ kind: fc.constant("text" as const), text, contentType: contentTypeArb }),
    },
    {
      // Just over the limit; slow, so rare (about 5 of the 1,000 requests).
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("oversize" as const),
        extraBytes: fc.integer({ min: 1, max: 4096 }),
        contentType: contentTypeArb,
      }),
    },
  );
}

const deletePayloadArb: fc.Arbitrary<Payload> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Payload>({ kind: "none" }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("text" as const),
      text: fc.oneof(
        fc.jsonValue({ maxDepth: 2 }).map(safeStringify),
        fc.constantFrom(...MALFORMED_JSON),
        textArb,
      ),
      contentType: contentTypeArb,
    }),
  },
);

// ---- Tokens --------------------------------------------------------------------------------

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function tokenParts(token: string): [string, string, string] {
  const [header = "", payload = "", signature = ""] = token.split(".");
  return [header, payload, signature];
}

function tokenUserId(token: string): number {
  const claims = JSON.parse(Buffer.from(tokenParts(token)[1], "base64url").toString("utf8")) as {
    sub: string;
  };
  return Number(claims.sub);
}

/** Tokens that look right but must be refused: forged, expired, tampered, of no user. */
async function forgedTokens(fixture: TenantFixture): Promise<string[]> {
  const ownerA = tokenUserId(fixture.a.ownerToken);
  const admin = tokenUserId(fixture.adminToken);
  const [ownerHeader, , ownerSignature] = tokenParts(fixture.a.ownerToken);
  const [, adminPayload] = tokenParts(fixture.adminToken);
  return [
    await signAccessToken("not-the-test-secret-0123456789abcdef", ownerA),
    await signAccessToken("not-the-test-secret-0123456789abcdef", admin),
    await signAccessToken(TEST_JWT_SECRET, ownerA, -60),
    await signAccessToken(TEST_JWT_SECRET, 987_654_321),
    `${ownerHeader}.${adminPayload}.${ownerSignature}`,
    `${base64url({ alg: "none", typ: "JWT" })}.${adminPayload}.`,
    `${base64url({ alg: "HS512", typ: "JWT" })}.${adminPayload}.${ownerSignature}`,
    fixture.a.ownerToken.slice(0, -6),
    `${fixture.a.ownerToken}x`,
  ];
}

function garbageAuthorizationArb(forged: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...forged).map((token) => `Bearer ${token}`),
    fc.constantFrom(...forged).map((token) => `JWT ${token}`),
    fc.constantFrom(
      "Bearer",
      "Bearer ",
      "Bearer a b",
      "Basic dXNlcjpwYXNz",
      "Token abc",
      "Bearer null",
      "Bearer undefined",
      "Bearer a.b.c",
      "Bearer ...",
      `Bearer ${"a".repeat(5000)}`,
    ),
    printableAscii(200).map((text) => `Bearer ${text}`),
    printableAscii(200),
  );
}

// ---- Requests ------------------------------------------------------------------------------

type ResourceState = {
  path: string;
  templates: JsonObject[];
  lenientFields: readonly string[];
  ids: Record<TenantLetter, number[]>;
};

function fuzzCaseArb(
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

function materialize(fuzzCase: FuzzCase): { method: string; path: string; options: RequestOptions } {
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

function isDetailBody(body: unknown): boolean {
  return isPlainObject(body) && typeof body.detail === "string";
}

/** DRF's 400: {detail: "..."} or {field: ["message", ...], ...}. */
function isDrfErrorBody(body: unknown): boolean {
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
function checkResponse(fuzzCase: FuzzCase, method: string, path: string, response: ApiResponse): void {
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

describe("conventions under fuzzing", () => {
  let testApp: TestApp;
  let fixture: TenantFixture;
  let clients: Record<Actor, ApiClient>;
  let resources: ResourceState[];
  let forged: string[];

  beforeAll(async () => {
    testApp = await startTestApp();
    fixture = await createTenantFixture(testApp);
    clients = {
      ownerA: testApp.client(fixture.a.ownerToken),
      staffA: testApp.client(fixture.a.staffToken),
      ownerB: testApp.client(fixture.b.ownerToken),
      staffB: testApp.client(fixture.b.staffToken),
      admin: testApp.client(fixture.adminToken),
      anonymous: testApp.client(),
      unattached: testApp.client(fixture.unattachedToken),
      garbage: testApp.client(),
    };
    forged = await forgedTokens(fixture);
    resources = [];
    for (const [index, resourceCase] of tenantResourceCases.entries()) {
      const n = 100 * (index + 1);
      // A couple of records in client a (and one in b, as another tenant's id to aim at).
      const seeds: [TenantLetter, ApiClient, number][] = [
        ["a", clients.ownerA, n + 1],
        ["a", clients.ownerA, n + 2],
        ["b", clients.ownerB, n + 3],
      ];
      for (const [letter, api, seed] of seeds) {
        const created = await api.post(
          resourceCase.path,
          await resourceCase.validBody(seed, { api, clientId: fixture[letter].clientId }),
        );
        expect(created.status, `${resourceCase.path}: ${created.text}`).toBe(201);
      }
      // Templates are made now, not during the run: validBody may create records it needs.
      const templates: JsonObject[] = [];
      for (const seed of [n + 11, n + 12, n + 13]) {
        templates.push(
          await resourceCase.validBody(seed, { api: clients.ownerA, clientId: fixture.a.clientId }),
        );
      }
      expect(templates.every((template) => Object.keys(template).length > 0)).toBe(true);
      resources.push({
        path: resourceCase.path,
        templates,
        lenientFields: resourceCase.lenientFields ?? [],
        ids: { a: [], b: [] },
      });
    }
    // Ids as the API lists them once every resource is made: a later resource's validBody creates
    // records of earlier ones (a transaction's code), and an id missing here would be aimed at as
    // "absent" and really deleted.
    for (const resource of resources) {
      for (const letter of ["a", "b"] as const) {
        const page = await clients[letter === "a" ? "ownerA" : "ownerB"].get(resource.path, { limit: 5000 });
        expect(page.status).toBe(200);
        resource.ids[letter] = (page.body as { results: { id: number }[] }).results.map((row) => row.id);
      }
      expect(resource.ids.a.length).toBeGreaterThanOrEqual(2);
    }
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it(
    `answers ${REQUESTS} malformed requests without a 5xx and without changing a row`,
    async () => {
      const before = await snapshotTables(testApp.db);
      const statuses = new Map<number, number>();
      let sent = 0;
      await fc.assert(
        fc.asyncProperty(fuzzCaseArb(fixture, resources, forged), async (fuzzCase) => {
          const { method, path, options } = materialize(fuzzCase);
          sent += 1;
          let response: ApiResponse;
          try {
            response = await clients[fuzzCase.actor].request(method, path, options);
          } catch (error) {
            throw new Error(`${method} ${path.slice(0, 300)} as ${fuzzCase.actor} failed: ${String(error)}`);
          }
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          checkResponse(fuzzCase, method, path, response);
        }),
        { numRuns: REQUESTS },
      );
      expect(sent).toBe(REQUESTS);
      const after = await snapshotTables(testApp.db);
      const changedTables = Object.keys(before).filter(
        (table) => JSON.stringify(before[table]) !== JSON.stringify(after[table]),
      );
      console.log(
        `malformed requests: ${sent} on ${resources.length} resources; 5xx ${[...statuses].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0)}; ` +
          `tables changed ${changedTables.length}; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
      );
      // The run reached past authentication and validation, not just the router's 404.
      const histogram = JSON.stringify(Object.fromEntries([...statuses].sort(([x], [y]) => x - y)));
      expect([...statuses.keys()], `statuses: ${histogram}`).toEqual(
        expect.arrayContaining([200, 400, 401, 403, 404]),
      );
      expect(after).toEqual(before);
    },
    LONG_TIMEOUT,
  );
});
