import { ActionIcon, Group, Tooltip } from "@mantine/core";
import type { ReactNode } from "react";
import type { Lockable } from "./add-row-draft";

const LOCK_LABELS: Record<Lockable, string> = {
  customer: "Customer",
  code: "Code",
  description: "Description",
  serviceDate: "Date",
  unitofmeasure: "Units",
  quantity: "Qty",
  rate: "Rate",
  amount: "Amount",
};

function LockIcon({ locked }: { locked: boolean }) {
  return (
    <svg
      width={14}
      height={14}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d={locked ? "M8 11V7a4 4 0 0 1 8 0v4" : "M8 11V7a4 4 0 0 1 7.5-2"} />
    </svg>
  );
}

/** The add row's lock of one column: a locked column keeps its value for the next row. */
export function Lock({
  column,
  locked,
  onToggle,
}: {
  column: Lockable;
  locked: boolean;
  onToggle: () => void;
}) {
  const label = `${locked ? "Unlock" : "Lock"} ${LOCK_LABELS[column]}`;
  return (
    <Tooltip label={label} withinPortal>
      <ActionIcon
        size="sm"
        variant={locked ? "filled" : "subtle"}
        color={locked ? "teal" : "gray"}
        aria-label={label}
        aria-pressed={locked}
        onClick={onToggle}
      >
        <LockIcon locked={locked} />
      </ActionIcon>
    </Tooltip>
  );
}

/** A field with its lock beside it. */
export function Locked({ children, lock }: { children: ReactNode; lock: ReactNode }) {
  return (
    <Group gap={4} wrap="nowrap" align="center">
      {children}
      {lock}
    </Group>
  );
}
