// Phones are kept in the spec's mask (###)-###-####: exactly 14 characters.

export const PHONE_MASK_PLACEHOLDER = "(555)-555-5555";

/** Formats what the user typed (or pasted) into the mask as far as the digits go. */
export function formatPhoneInput(raw: string): string {
  const digits = raw.replace(/\D/g, "").slice(0, 10);
  if (digits === "") return "";
  const area = digits.slice(0, 3);
  const exchange = digits.slice(3, 6);
  const line = digits.slice(6);
  if (digits.length <= 3) return `(${area}`;
  if (digits.length <= 6) return `(${area})-${exchange}`;
  return `(${area})-${exchange}-${line}`;
}
