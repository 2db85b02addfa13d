import { BILL_INDICATOR_FLAGS, type ArchiveState } from "@cyclebill/domain";
import { Badge } from "@mantine/core";
import { ArchiveStateBadge } from "../customers/archive";
import { BILL_INDICATOR_LABELS } from "./groups-api";

export const BILL_INDICATOR_OPTIONS = BILL_INDICATOR_FLAGS.map((flag) => ({
  value: flag,
  label: BILL_INDICATOR_LABELS[flag],
}));

/** The member's processing status; an archived customer shows as archived, since it takes nothing. */
export function StatusBadge({
  flag,
  archiveState = "active",
}: {
  flag: keyof typeof BILL_INDICATOR_LABELS;
  archiveState?: ArchiveState;
}) {
  if (archiveState === "archived") return <ArchiveStateBadge state={archiveState} />;
  const color = flag === "standard" ? "teal" : flag === "skip" ? "orange" : "gray";
  return (
    <Badge variant="light" color={color} tt="none">
      {BILL_INDICATOR_LABELS[flag]}
    </Badge>
  );
}
