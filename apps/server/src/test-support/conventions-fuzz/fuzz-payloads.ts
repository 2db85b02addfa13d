// Generators of request bodies, content types and forged tokens for http/conventions.fuzz.test.ts.
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { signAccessToken } from "../../modules/auth/access-token.js";
import { TEST_JWT_SECRET } from "../test-app.js";
import type { TenantFixture } from "../test-app.js";
import type { JsonObject } from "./fuzz-values.js";
import { isPlainObject, parsesToObject, printableAscii, textArb, brokenBodyArb } from "./fuzz-values.js";

export type Payload =
  | { kind: "none" }
  | { kind: "text"; text: string; contentType: string }
  /** Materialised only when sent, so a shrunk counterexample does not print a megabyte. */
  | { kind: "oversize"; extraBytes: number; contentType: string };

export const MALFORMED_JSON = [
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

export const CONTENT_TYPES = [
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

export const contentTypeArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant("application/json") },
  { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
);

export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

/** Bodies for POST and PUT; see the top of the file for why none can be a valid write. */
export function writePayloadArb(
  templates: JsonObject[],
  lenientFields: readonly string[],
): fc.Arbitrary<Payload> {
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

export const deletePayloadArb: fc.Arbitrary<Payload> = fc.oneof(
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

export const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export function tokenParts(token: string): [string, string, string] {
  const [header = "", payload = "", signature = ""] = token.split(".");
  return [header, payload, signature];
}

export function tokenUserId(token: string): number {
  const claims = JSON.parse(Buffer.from(tokenParts(token)[1], "base64url").toString("utf8")) as {
    sub: string;
  };
  return Number(claims.sub);
}

/** Tokens that look right but must be refused: forged, expired, tampered, of no user. */
export async function forgedTokens(fixture: TenantFixture): Promise<string[]> {
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

export function garbageAuthorizationArb(forged: string[]): fc.Arbitrary<string> {
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
