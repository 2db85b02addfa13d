import { formatRateUsd, formatUsd, isValidDecimalString } from "@cyclebill/domain";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2025-01-31" → "Jan 31, 2025". Parsed by hand: new Date("2025-01-31") is UTC and can show the day before. */
export function formatIsoDate(value: string | null | undefined): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value ?? "");
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || month === undefined) return value ?? "—";
  return `${month} ${Number(match[3])}, ${match[1]}`;
}

/** A decimal-string amount as US dollars, exactly (never through a float); "—" when absent or malformed. */
export function formatAmount(value: string | null | undefined): string {
  if (value === null || value === undefined || !isValidDecimalString(value)) return "—";
  return formatUsd(value);
}

/** A rate with every place it has (at least 2), exactly as the PDFs print it: "$7.499". */
export function formatRate(value: string | null | undefined): string {
  if (value === null || value === undefined || !isValidDecimalString(value)) return "—";
  return formatRateUsd(value);
}

/** A moment in the reader's time zone, to the minute (or the second); `absent` when there is none. */
export function formatMoment(
  value: string | null,
  options: { seconds?: boolean; absent?: string } = {},
): string {
  if (value === null) return options.absent ?? "—";
  return new Date(value).toLocaleString("en-US", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    ...(options.seconds ? { second: "2-digit" } : {}),
  });
}
