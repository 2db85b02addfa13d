import type { ChangeEvent } from "react";

/** The keys of T whose values are strings. */
type TextKeys<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T];

/**
 * Binds inputs to the text fields of a form's state: `<TextInput {...bind("rate")} />` shows the field and
 * writes what is typed back through `patch`.
 */
export function textBinder<T>(values: T, patch: (changes: Partial<T>) => void) {
  return <K extends TextKeys<T>>(field: K) => ({
    value: values[field] as string,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      const changes: Partial<T> = {};
      changes[field] = event.currentTarget.value as T[K];
      patch(changes);
    },
  });
}
