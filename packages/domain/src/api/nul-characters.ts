// PostgreSQL text cannot hold U+0000, so a NUL anywhere in a request would fail at the database
// as a 500. Every request input is checked for it before its schema runs, and refused as a 400.

export const NUL_CHARACTER_MESSAGE = "This field may not contain a NUL character (\\u0000).";

export type InputIssue = { path: PropertyKey[]; message: string };

/** Enough to show what is wrong; a body full of NULs does not need a message for each. */
const MAX_ISSUES = 20;

/**
 * Where the input holds a NUL: in a string value, or in a key (reported under the key with the NUL
 * written as \u0000). Walks with its own stack, so a deeply nested body cannot overflow the call stack.
 */
export function nulCharacterIssues(input: unknown): InputIssue[] {
  const issues: InputIssue[] = [];
  const pending: { value: unknown; path: PropertyKey[] }[] = [{ value: input, path: [] }];
  while (pending.length > 0 && issues.length < MAX_ISSUES) {
    const { value, path } = pending.pop() as { value: unknown; path: PropertyKey[] };
    if (typeof value === "string") {
      if (value.includes("\0")) issues.push({ path, message: NUL_CHARACTER_MESSAGE });
    } else if (Array.isArray(value)) {
      // Children go on the stack last first, so values are visited in the input's order.
      for (let index = value.length - 1; index >= 0; index -= 1) {
        pending.push({ value: value[index] as unknown, path: [...path, index] });
      }
    } else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value).reverse()) {
        if (key.includes("\0")) {
          issues.push({ path: [...path, key.replaceAll("\0", "\\u0000")], message: NUL_CHARACTER_MESSAGE });
        } else {
          pending.push({ value: item, path: [...path, key] });
        }
      }
    }
  }
  return issues;
}
