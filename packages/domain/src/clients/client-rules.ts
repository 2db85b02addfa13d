export const CLIENT_STATUS_CODES = ["A", "M", "C", "N", "I", "P", "D"] as const;
export type ClientStatusCode = (typeof CLIENT_STATUS_CODES)[number];
export const CLIENT_STATUS_LABELS: Record<ClientStatusCode, string> = {
  A: "Active",
  M: "Can Owes Money",
  C: "Can Owes No Money",
  N: "Can Never Proc",
  I: "InActive",
  P: "Pending",
  D: "Disabled",
};

export const INACTIVE_FLAGS = ["", "C", "D"] as const;
export const INACTIVE_FLAG_LABELS: Record<(typeof INACTIVE_FLAGS)[number], string> = {
  "": "None",
  C: "No Bills",
  D: "No Bills No Reports",
};

export const CLIENT_FINANCE_FLAGS = ["N", "1", "2", "3", "E"] as const;
export const CLIENT_FINANCE_FLAG_LABELS: Record<(typeof CLIENT_FINANCE_FLAGS)[number], string> = {
  N: "None",
  "1": "Begin at 30 days overdue",
  "2": "Begin at 60 days overdue",
  "3": "Begin at 90 days overdue",
  E: "Exception",
};

export const RATE_OR_PERCENT = ["rate", "percent"] as const;
export const BILL_CRITERIA = ["00", "01", "02", "03", "99"] as const;
export const BILL_CRITERIA_LABELS: Record<(typeof BILL_CRITERIA)[number], string> = {
  "00": "All Bills",
  "01": "No Bills Less Than $5",
  "02": "No Credit Balance Bills",
  "03": "No Zero Balance Bills",
  "99": "Unknown",
};
export const BILL_FULFILMENT = ["", "C", "A"] as const;
export const BILL_FULFILMENT_LABELS: Record<(typeof BILL_FULFILMENT)[number], string> = {
  "": "Mail",
  C: "Bulk ship to client",
  A: "Ship to alternate address",
};
export const PROCESS_TYPES = ["00", "01", "02", "03", "04"] as const;
export const ALTERNATE_ADDRESS_FLAGS = ["", "1", "2", "3", "4"] as const;
export const PULL_EXPLANATIONS = ["0", "1", "2", "3"] as const;
export const PULL_EXPLANATION_LABELS: Record<(typeof PULL_EXPLANATIONS)[number], string> = {
  "0": "Not set",
  "1": "Send with reports",
  "2": "Insert",
  "3": "Special handling",
};

/** Client cycle days: 1-27, or 99. */
export const CYCLE_DAYS: readonly number[] = [...Array.from({ length: 27 }, (_, index) => index + 1), 99];

export const DOUBLE_BILLING_MESSAGE =
  "You cannot change the cycle processing day to a later date in the same month as it would cause double billing.";

/**
 * Once this month's cycle has run, moving the cycle day to a day still ahead in the month would
 * bill the client's customers a second time this month.
 */
export function cycleChangeCausesDoubleBilling(change: {
  currentCycle: number;
  newCycle: number;
  cycleRan: boolean;
  todayDayOfMonth: number;
}): boolean {
  if (!change.cycleRan || change.newCycle === change.currentCycle || change.newCycle === 99) return false;
  return change.newCycle > change.todayDayOfMonth;
}
