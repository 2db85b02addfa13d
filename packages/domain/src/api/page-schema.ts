import { z } from "zod";

/** A list answer: {count, results}. count is every match; results the page asked for. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ count: z.number().int(), results: z.array(item) });
}

/** A money amount as the API sends it: a decimal string with 2 places, e.g. "12.50". */
export const amountString = z
  .string()
  .meta({ description: "decimal string, 2 places", format: "decimal", pattern: "^-?\\d+\\.\\d{2}$" });
/** A calendar date: YYYY-MM-DD. */
export const dateString = z.string().meta({ description: "YYYY-MM-DD", format: "date" });
/** A moment in time: ISO 8601 in UTC. */
export const timestampString = z.string().describe("ISO 8601 timestamp");
