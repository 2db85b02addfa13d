import { z } from "zod";
import { asOneLine } from "../api/field-schemas.js";
import { onTheWire } from "../api/wire-schema.js";
import { integerParam } from "../api/list-query.js";

/** A group (route) of customers. */
export const groupInputSchema = z.object({
  route_name: z.string().overwrite(asOneLine).trim().min(1).max(80),
});
export type GroupInput = z.infer<typeof groupInputSchema>;

export const BILL_INDICATOR_FLAGS = ["standard", "skip", "pause"] as const;

/**
 * A customer's membership in a group. `stop` is 0-based; any value is accepted and resolved by the
 * position rules (clamped, or the last place when it is not a number).
 */
export const routePlanInputSchema = z.object({
  route: onTheWire(
    z
      .union([z.number(), z.string()], {
        error: (issue) =>
          issue.input === undefined || issue.input === null
            ? "No group selected. Please select a group before adding the customer."
            : "A valid integer is required.",
      })
      .transform((value) => Number(value))
      .pipe(z.number().int("A valid integer is required.").positive("A valid integer is required.")),
    { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  ),
  customer: integerParam({ min: 1 }),
  stop: z.unknown().optional(),
  bill_indicator_flag: z.enum(BILL_INDICATOR_FLAGS).default("standard"),
});
export type RoutePlanInput = z.input<typeof routePlanInputSchema>;
