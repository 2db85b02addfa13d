import { REQUIRED_MESSAGE, drfErrorMap } from "@cyclebill/domain";
import type { z } from "zod";

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

// An empty field reads "This field is required." rather than DRF's "may not be blank": in a form the
// user has simply not filled it in yet.
const formErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === "too_small" && issue.origin === "string" && typeof issue.input === "string") {
    if (issue.input.trim() === "") return REQUIRED_MESSAGE;
  }
  return drfErrorMap(issue);
};

/** Validates form values with a shared schema; returns the parsed data or the first message per field. */
export function validateForm<S extends z.ZodType, K extends string>(
  schema: S,
  values: Record<K, unknown>,
): { ok: true; data: z.output<S> } | { ok: false; errors: FieldErrors<K> } {
  const result = schema.safeParse(values, { error: formErrorMap });
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors<K> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === "string" && field in values && errors[field as K] === undefined) {
      errors[field as K] = issue.message;
    }
  }
  return { ok: false, errors };
}
