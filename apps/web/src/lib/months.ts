// Month names and select options, shared by every screen that picks or shows a month.
import { MONTH_NAMES } from "@cyclebill/domain";

export { MONTH_NAMES };

/** Select options 1-12 with the month's name. */
export const MONTH_OPTIONS = MONTH_NAMES.map((name, index) => ({ value: String(index + 1), label: name }));

export function monthName(month: number): string {
  return MONTH_NAMES[month - 1] ?? String(month);
}
