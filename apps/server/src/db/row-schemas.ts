import { z } from "zod";

// Column kinds of raw SQL rows, as both drivers hand them over. PGlite answers bigint and count(*)
// as numbers where node-postgres answers text; numeric is text on both (exact money); dates and
// timestamps are text on a prepared runner and on node-postgres, a Date from PGlite's execute.

const INTEGER_TEXT = /^-?\d+$/;

/** An integer column (int, bigint, count(*)), as a number. */
export const dbInt = z.union([
  z.number().int(),
  z
    .string()
    .regex(INTEGER_TEXT)
    .transform((text) => Number(text)),
]);

/** A numeric column (money, rates), kept as its exact text. */
export const dbDecimal = z.union([
  z.string().regex(/^-?\d+(\.\d+)?$/),
  // A sum or count that the driver typed as a number (PGlite's bigint) is exact as text too.
  z.number().transform((value) => String(value)),
]);

/** A `date` column as ISO text (YYYY-MM-DD). PGlite's Date is midnight UTC of that date. */
export const dbDate = z.union([
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  z.date().transform((value) => value.toISOString().slice(0, 10)),
]);

/** A timestamp column as text as PostgreSQL prints it, or ISO text where the driver made a Date. */
export const dbTimestamp = z.union([z.string(), z.date().transform((value) => value.toISOString())]);

export const dbText = z.string();
export const dbBool = z.boolean();
/** A json/jsonb column: parsed by both drivers; its shape is checked by the caller's schema. */
export const dbJson = z.unknown();
