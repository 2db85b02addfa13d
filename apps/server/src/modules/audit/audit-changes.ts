import type { AuditChange } from "../../db/schema/audit.js";

/** A record's fields as the code holds them (a drizzle row, or part of one). */
export type AuditValues = Record<string, unknown>;

/** What a masked field shows: that it has a value, never the value. */
export const MASKED = "••••";

/** Noise every update carries. */
const ALWAYS_OMITTED = new Set(["updatedAt"]);

/** A value as the trail keeps it: text, or null. */
export function auditValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  return JSON.stringify(value);
}

/** A field's name as the API spells it (snake_case). */
export function auditFieldName(key: string): string {
  // A number inside a name is a word of its own, as the API spells it (dayCharge30Day:
  // day_charge_30_day); a trailing one is not (address1).
  return key
    .replace(/([a-z])(\d+)(?=[A-Z])/g, "$1_$2")
    .replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * Each field whose value differs between before and after (null before: created; null after:
 * deleted, so a deleted record stays readable in the trail). Masked fields show only that they have
 * a value (a password hash, a gateway key); omitted ones are left out.
 */
export function changesBetween(
  before: AuditValues | null | undefined,
  after: AuditValues | null | undefined,
  options: { omit?: readonly string[]; mask?: readonly string[] } = {},
): AuditChange[] {
  const omit = new Set([...ALWAYS_OMITTED, ...(options.omit ?? [])]);
  const mask = new Set(options.mask ?? []);
  const keys = [...new Set([...Object.keys(after ?? {}), ...Object.keys(before ?? {})])];
  const changes: AuditChange[] = [];
  for (const key of keys) {
    if (omit.has(key)) continue;
    const was = auditValue(before?.[key]);
    const is = auditValue(after?.[key]);
    if (before && after && was === is) continue;
    if (!before && is === null) continue;
    if (!after && was === null) continue;
    const shown = (value: string | null) => (mask.has(key) && value !== null ? MASKED : value);
    changes.push([auditFieldName(key), shown(was), shown(is)]);
  }
  return changes;
}
