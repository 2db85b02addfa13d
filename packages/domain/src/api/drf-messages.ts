import type { z } from "zod";

// Validation messages worded as Django REST Framework words them, so the web app and any
// existing API client see the errors they expect.
export const REQUIRED_MESSAGE = "This field is required.";
export const NOT_NULL_MESSAGE = "This field may not be null.";
export const BLANK_MESSAGE = "This field may not be blank.";
export const INTEGER_MESSAGE = "A valid integer is required.";
export const NUMBER_MESSAGE = "A valid number is required.";
export const BOOLEAN_MESSAGE = "Must be a valid boolean.";
export const STRING_MESSAGE = "Not a valid string.";
export const DATE_MESSAGE = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD.";

const typeNames: Record<string, string> = {
  array: "list",
  object: "dict",
  string: "str",
  number: "int",
  boolean: "bool",
};

function describeInput(input: unknown): string {
  if (Array.isArray(input)) return "list";
  if (input === null) return "null";
  return typeNames[typeof input] ?? typeof input;
}

/** Per-parse error map (zod v4) giving DRF's messages; schema-level messages still win. */
export const drfErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.input === undefined && issue.code !== "custom") return REQUIRED_MESSAGE;
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return REQUIRED_MESSAGE;
      if (issue.input === null) return NOT_NULL_MESSAGE;
      if (issue.expected === "object")
        return `Invalid data. Expected a dictionary, but got ${describeInput(issue.input)}.`;
      if (issue.expected === "array")
        return `Expected a list of items but got type "${describeInput(issue.input)}".`;
      if (issue.expected === "int" || issue.expected === "bigint") return INTEGER_MESSAGE;
      if (issue.expected === "number") return NUMBER_MESSAGE;
      if (issue.expected === "boolean") return BOOLEAN_MESSAGE;
      if (issue.expected === "string") return STRING_MESSAGE;
      return undefined;
    }
    case "too_big":
      if (issue.origin === "string")
        return `Ensure this field has no more than ${String(issue.maximum)} characters.`;
      if (issue.origin === "array")
        return `Ensure this field has no more than ${String(issue.maximum)} elements.`;
      return `Ensure this value is less than or equal to ${String(issue.maximum)}.`;
    case "too_small":
      if (issue.origin === "string")
        return Number(issue.minimum) <= 1
          ? BLANK_MESSAGE
          : `Ensure this field has at least ${String(issue.minimum)} characters.`;
      if (issue.origin === "array") return "This list may not be empty.";
      return `Ensure this value is greater than or equal to ${String(issue.minimum)}.`;
    case "invalid_value":
      return `"${String(issue.input)}" is not a valid choice.`;
    case "invalid_format":
      if (issue.format === "email") return "Enter a valid email address.";
      if (issue.format === "date") return DATE_MESSAGE;
      return undefined;
    default:
      return undefined;
  }
};
