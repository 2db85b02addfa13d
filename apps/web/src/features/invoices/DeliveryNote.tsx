import { Text, Tooltip } from "@mantine/core";
import { formatIsoDate } from "../../lib/format";
import { deliveryLabel, type DocumentRow } from "./documents-api";

/** How a statement went out; a failed email says why (hover) and to whom. */
export function DeliveryNote({ row }: { row: DocumentRow }) {
  const label = deliveryLabel(row);
  if (label === null) return null;
  const failed = row.email?.status === "failed";
  const text = (
    <Text size="xs" c={failed ? "red" : "dimmed"} mt={2} data-testid="statement-delivery">
      {label}
    </Text>
  );
  if (!row.email) return text;
  const detail = failed
    ? `${row.email.recipient || "No address"}: ${row.email.error ?? "not sent"}`
    : `${row.email.recipient}${row.email.sent ? ` · ${formatIsoDate(row.email.sent)}` : ""}`;
  return (
    <Tooltip label={detail} multiline maw={320}>
      {text}
    </Tooltip>
  );
}
