import { CLIENT_RATE_FIELDS } from "./client-schemas.js";

/**
 * Client fields only the provider's admins may change (issue 30): the client's standing with the
 * provider (number, status, inactive flag), what the provider charges (rates and volume counts),
 * the bulk pull settings, the billing cycle and production settings, and the payment gateway
 * account. The server refuses a non-admin's change to any of them; the screens show them read-only.
 */
export const PROVIDER_ONLY_CLIENT_FIELDS = [
  "client_no",
  "status_code",
  "inactive_flag",
  ...CLIENT_RATE_FIELDS,
  "pull_duration",
  "pull_explanation",
  "normal_cycle",
  "bill_criteria",
  "bill_fulfilment",
  "process_type",
  "bluepay_account_id",
  "bluepay_secret_key",
  "clear_blue_pay_key",
  "gateway_hash_type",
  "require_second_factor",
] as const;
export type ProviderOnlyClientField = (typeof PROVIDER_ONLY_CLIENT_FIELDS)[number];

const PROVIDER_ONLY = new Set<string>(PROVIDER_ONLY_CLIENT_FIELDS);

export function isProviderOnlyClientField(field: string): boolean {
  return PROVIDER_ONLY.has(field);
}

type FieldValue = string | number | boolean | null | undefined;

/** Same value as stored: "" and null are both "none", decimals compare by value ("1.5" = "1.50000"). */
function sameValue(sent: FieldValue, stored: FieldValue): boolean {
  const none = (value: FieldValue) => value === null || value === undefined || value === "";
  if (none(sent) || none(stored)) return none(sent) && none(stored);
  const decimal = /^-?\d+(\.\d+)?$/;
  if (decimal.test(String(sent)) && decimal.test(String(stored))) return Number(sent) === Number(stored);
  return String(sent) === String(stored);
}

/**
 * The provider-only fields a save would change, given what was sent and the stored client (API
 * names). Sending a stored value back unchanged is not a change; the write-only gateway secret is
 * a change when a new one is sent, and removing a stored key is one.
 */
export function providerOnlyClientChanges(
  sent: Readonly<Record<string, unknown>>,
  stored: Readonly<Record<string, unknown>>,
): ProviderOnlyClientField[] {
  return PROVIDER_ONLY_CLIENT_FIELDS.filter((field) => {
    const value = sent[field];
    if (value === undefined) return false;
    if (field === "bluepay_secret_key") return value !== "";
    if (field === "clear_blue_pay_key") return value === true && stored.has_blue_pay_key === true;
    return !sameValue(value as FieldValue, stored[field] as FieldValue);
  });
}

export function providerOnlyClientMessage(fields: readonly string[]): string {
  const names = fields.join(", ");
  return fields.length === 1
    ? `Only the provider's administrators can change ${names}.`
    : `Only the provider's administrators can change these fields: ${names}.`;
}
