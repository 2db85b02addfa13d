import { allMessages } from "./api-client";
import type { FieldErrors } from "../features/auth/form-validation";

/** The first message per known field of a DRF 400 body ({field: [msg]}). */
export function fieldErrorsFromBody<K extends string>(body: unknown, fields: readonly K[]): FieldErrors<K> {
  const errors: FieldErrors<K> = {};
  if (typeof body !== "object" || body === null) return errors;
  for (const [key, value] of Object.entries(body)) {
    if (!(fields as readonly string[]).includes(key)) continue;
    const [first] = allMessages(value);
    if (first) errors[key as K] = first;
  }
  return errors;
}
