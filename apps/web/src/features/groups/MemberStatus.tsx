import { BILL_INDICATOR_FLAGS } from "@cyclebill/domain";
import { Badge } from "@mantine/core";
import { BILL_INDICATOR_LABELS } from "./groups-api";

export const BILL_INDICATOR_OPTIONS = BILL_INDICATOR_FLAGS.map((flag) => ({
  value: flag,
  label: BILL_INDICATOR_LABELS[flag],
}));

export function StatusBadge({ flag }: { flag: keyof typeof BILL_INDICATOR_LABELS }) {
  const color = flag === "standard" ? "teal" : flag === "skip" ? "orange" : "gray";
  return (
    <Badge variant="light" color={color} tt="none">
      {BILL_INDICATOR_LABELS[flag]}
    </Badge>
  );
}
