import { z } from "zod";
import { INTEGER_MESSAGE, REQUIRED_MESSAGE } from "./drf-messages.js";
import { onTheWire } from "./wire-schema.js";

/** A whole number sent as a query-string value (or JSON number) within the given bounds. */
export function integerParam(bounds: { min?: number; max?: number } = {}) {
  const min = bounds.min ?? 0;
  // 15 digits: what the digit check below reads (every such number is a safe integer).
  const max = bounds.max ?? 999_999_999_999_999;
  const schema = z
    .union([z.string(), z.number()], {
      error: (issue) => (issue.input === undefined ? REQUIRED_MESSAGE : INTEGER_MESSAGE),
    })
    .transform((value) => (typeof value === "number" ? value : value.trim()))
    .refine(
      (value) => (typeof value === "number" ? Number.isSafeInteger(value) : /^-?\d{1,15}$/.test(value)),
      {
        message: INTEGER_MESSAGE,
      },
    )
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, `Ensure this value is greater than or equal to ${min}.`)
        .max(max, `Ensure this value is less than or equal to ${max}.`),
    );
  // Documented as the integer it must be; a numeric string (the query string's only form) still reads.
  return onTheWire(schema, { type: "integer", minimum: min, maximum: max });
}

/** Default and largest page sizes for every list. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 5000;

/** Paging, ordering and tenant keys every list endpoint takes; resources add their own filters. */
export const listQuerySchema = z.looseObject({
  client_id: integerParam({ min: 1 }).optional(),
  limit: integerParam({ min: 1, max: MAX_PAGE_SIZE }).optional(),
  offset: integerParam({ min: 0 }).optional(),
  page: integerParam({ min: 1 }).optional(),
  ordering: z
    .string({ error: "Ordering must be a single comma-separated list of fields." })
    .max(200)
    .optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** Query for reads and writes of one record: only the tenant key. */
export const recordQuerySchema = z.looseObject({
  client_id: integerParam({ min: 1 }).optional(),
});

export const recordIdParamsSchema = z.object({ id: integerParam({ min: 1 }) });

export type Page<T> = { count: number; results: T[] };

export type OrderingTerm = { field: string; descending: boolean };

/** Parses "a,-b" into terms, or names the unknown fields. */
export function parseOrdering(
  ordering: string | undefined,
  allowed: readonly string[],
): { ok: true; terms: OrderingTerm[] } | { ok: false; unknown: string[] } {
  if (!ordering || ordering.trim() === "") return { ok: true, terms: [] };
  const terms = ordering
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => ({ field: part.replace(/^-/, ""), descending: part.startsWith("-") }));
  const unknown = terms.filter((term) => !allowed.includes(term.field)).map((term) => term.field);
  return unknown.length > 0 ? { ok: false, unknown } : { ok: true, terms };
}

/** limit/offset, or page (1-based) with limit as the page size. */
export function resolvePaging(query: Pick<ListQuery, "limit" | "offset" | "page">): {
  limit: number;
  offset: number;
} {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (query.page !== undefined) return { limit, offset: (query.page - 1) * limit };
  return { limit, offset: query.offset ?? 0 };
}

/** A yes/no query parameter as the old screens send it ("true", "false", "1", "0"). */
export const queryFlag = z
  .union([z.boolean(), z.string()])
  .transform((value) => value === true || value === "true" || value === "1" || value === "True");
