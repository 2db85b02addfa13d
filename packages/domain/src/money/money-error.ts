// Thrown for input the money functions cannot interpret exactly. API input should be validated first with
// the schemas in money-schemas.ts, so reaching this error means a programming mistake, not a user typo.
export class MoneyError extends Error {
  override name = "MoneyError";
}

// Quotes a rejected value for an error message without echoing arbitrarily long input back.
export function describeInput(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
