import { Text, Tooltip } from "@mantine/core";
import { formatIsoDate } from "../../lib/format";
import { deliveryLabel, type DocumentRow } from "./documents-api";

/** How a document went out and where that stands; a failed email says why (hover) and to whom. */
export function DeliveryNote({ row }: { row: DocumentRow }) {
  const label = deliveryLabel(row);
  const failed = row.sent_state === "failed";
  const text = (
    <Text size="xs" c={failed ? "red" : "dimmed"} mt={2} data-testid="document-delivery">
      {label}
    </Text>
  );
  const details: string[] = [];
  if (row.email) {
    details.push(
      failed
        ? `${row.email.recipient || "No address"}: ${row.email.error ?? "not sent"}`
        : `${row.email.recipient}${row.email.sent ? ` · emailed ${formatIsoDate(row.email.sent)}` : ""}`,
    );
  }
  if (row.printed_at) details.push(`Printed ${formatIsoDate(row.printed_at)}`);
  if (row.document === "invoice" && row.statement_id !== null)
    details.push(`Carried by statement id ${String(row.statement_id)}`);
  if (details.length === 0) return text;
  return (
    <Tooltip label={details.join(" · ")} multiline maw={320}>
      {text}
    </Tooltip>
  );
}
