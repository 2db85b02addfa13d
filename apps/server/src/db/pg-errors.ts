/** The SQLSTATE of a PostgreSQL error, looking through drizzle's wrapper. */
export function pgErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Database errors that can only come from the request's data, answered as 400 rather than 500. */
export function describeDataError(code: string | undefined): string | undefined {
  switch (code) {
    case "23505":
      return "A record with these values already exists.";
    case "23503":
      return "This record is referenced by other records, or refers to one that does not exist.";
    case "22003":
      return "A number is out of range.";
    case "22001":
      return "A value is too long.";
    case "22P02":
    case "22007":
    case "22008":
      return "A value has the wrong format.";
    default:
      return undefined;
  }
}
